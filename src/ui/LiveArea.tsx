/**
 * The part of the screen that changes while the model works: the block of text still streaming and
 * the calls still running. Its height is bounded by `maxRows`, so the frame Ink redraws stays small
 * and never outgrows the terminal (which would make Ink repaint everything).
 */
import { Box, Text } from 'ink';
import React, { useMemo } from 'react';
import { liveSource, renderMarkdown, tailRows } from './markdown-text.js';
import { symbols } from './theme.js';
import { LiveToolView } from './tool-views/index.js';
import type { LiveState } from './types.js';
import { useView } from './view-context.js';

export interface LiveAreaProps {
  readonly live: LiveState;
  /** Terminal rows this area may use (margins included). */
  readonly maxRows: number;
}

const MAX_TOOLS_SHOWN = 3;
const ROWS_PER_TOOL = 7;
const MAX_TEXT_ROWS = 14;

export function LiveArea({ live, maxRows }: LiveAreaProps): React.ReactElement | null {
  const compact = live.tools.length * ROWS_PER_TOOL > maxRows - 3;
  const shownCount = compact ? Math.max(1, Math.min(live.tools.length, Math.floor((maxRows - 3) / 2))) : MAX_TOOLS_SHOWN;
  const tools = live.tools.slice(-shownCount);
  const hiddenTools = live.tools.length - tools.length;
  const toolRows = tools.length * (compact ? 2 : ROWS_PER_TOOL) + (hiddenTools ? 1 : 0);
  // Streamed text: at most a third of the terminal. Finished blocks move to the transcript anyway,
  // and every live row is redrawn on each frame.
  const textRows = Math.max(2, Math.min(maxRows - toolRows, MAX_TEXT_ROWS));
  if (!live.text.trim() && !live.thinking && tools.length === 0) return null;
  return (
    <Box flexDirection="column">
      {live.text.trim() ? <LiveText text={live.text} continues={live.continues} maxRows={textRows} /> : null}
      {live.thinking && !live.text.trim() ? <ThinkingLine /> : null}
      {hiddenTools ? <Text dimColor>{`  … and ${hiddenTools} more calls running`}</Text> : null}
      {tools.map((t) => (
        <Box key={t.toolUseId} marginTop={1}>
          <LiveToolView tool={t} compact={compact} />
        </Box>
      ))}
    </Box>
  );
}

function ThinkingLine(): React.ReactElement {
  const { theme } = useView();
  return (
    <Box marginTop={1}>
      <Text color={theme.color('muted')} italic>
        ✻ Thinking…
      </Text>
    </Box>
  );
}

function LiveText({ text, continues, maxRows }: { text: string; continues: boolean; maxRows: number }): React.ReactElement {
  const { columns, theme } = useView();
  const width = columns - 4;
  const shown = useMemo(() => {
    const rendered = renderMarkdown(liveSource(text, maxRows), width, theme);
    // One row for the top margin, one for the "…" line.
    return tailRows(rendered, maxRows - 2, columns - 2);
  }, [text, width, columns, maxRows, theme]);
  return (
    <Box marginTop={1}>
      <Box width={2} flexShrink={0}>
        <Text>{continues ? ' ' : symbols.bullet}</Text>
      </Box>
      <Box flexDirection="column">
        {shown.hidden > 0 ? <Text dimColor>…</Text> : null}
        {/* One <Text> per line: Ink measures and wraps each text once and caches it, so only the
            line that grows costs anything on the next frame. */}
        {shown.text.split('\n').map((line, i) => (
          <Text key={i}>{line || ' '}</Text>
        ))}
      </Box>
    </Box>
  );
}
