/**
 * The finished part of the session. Items go through Ink's <Static>: each is written to the terminal
 * once and never re-rendered, so a long session costs nothing per frame.
 */
import { Box, Static, Text } from 'ink';
import React from 'react';
import { Markdown } from './Markdown.js';
import { symbols } from './theme.js';
import { FinishedToolView } from './tool-views/index.js';
import type { HistoryItem } from './types.js';
import { useView } from './view-context.js';

export interface TranscriptProps {
  readonly items: HistoryItem[];
}

export const Transcript = React.memo(function Transcript({ items }: TranscriptProps): React.ReactElement {
  return <Static items={items}>{(item) => <HistoryItemView key={item.id} item={item} />}</Static>;
});

export function HistoryItemView({ item }: { item: HistoryItem }): React.ReactElement {
  return (
    <Box flexDirection="column" marginTop={1}>
      <ItemBody item={item} />
    </Box>
  );
}

function ItemBody({ item }: { item: HistoryItem }): React.ReactElement {
  const { columns, theme } = useView();
  switch (item.kind) {
    case 'banner':
      return <Banner item={item} />;
    case 'user':
      return (
        <Box>
          <Box width={2} flexShrink={0}>
            <Text color={theme.color('user')}>{symbols.prompt}</Text>
          </Box>
          <Text color={theme.color('user')} wrap="wrap">
            {item.text}
          </Text>
        </Box>
      );
    case 'assistant':
      return (
        <Box>
          <Box width={2} flexShrink={0}>
            <Text>{item.continues ? ' ' : symbols.bullet}</Text>
          </Box>
          <Markdown text={item.text} width={columns - 4} theme={theme} />
        </Box>
      );
    case 'tool':
      return <FinishedToolView tool={item.tool} />;
    case 'info':
      return (
        <Text color={theme.color(item.tone === 'error' ? 'error' : item.tone === 'warning' ? 'warn' : 'muted')} wrap="wrap">
          {item.text}
        </Text>
      );
    case 'shell':
      return <ShellItem item={item} />;
    case 'interrupted':
      return <Text color={theme.color('warn')}>{`  ${symbols.result}  Interrupted · tell wicket what to do instead`}</Text>;
  }
}

/** `! command` and its output under it, as Claude Code's bash mode shows them. */
function ShellItem({ item }: { item: Extract<HistoryItem, { kind: 'shell' }> }): React.ReactElement {
  const { theme } = useView();
  const lines = item.output.replace(/\n+$/, '').split('\n');
  const shown = lines.length > SHELL_LINES ? [...lines.slice(0, SHELL_LINES), `… ${lines.length - SHELL_LINES} more lines`] : lines;
  return (
    <Box flexDirection="column">
      <Text color={theme.color('bash')} wrap="wrap">{`! ${item.command}`}</Text>
      <Box>
        <Text dimColor>{`  ${symbols.result}  `}</Text>
        <Box flexShrink={1} flexDirection="column">
          {shown.map((l, i) => (
            <Text key={i} color={item.failed ? theme.color('error') : undefined} dimColor={!item.failed} wrap="wrap">
              {item.refused && i === 0 ? `Not run: ${l}` : l || ' '}
            </Text>
          ))}
        </Box>
      </Box>
    </Box>
  );
}

const SHELL_LINES = 20;

function Banner({ item }: { item: Extract<HistoryItem, { kind: 'banner' }> }): React.ReactElement {
  const { theme } = useView();
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text>
        <Text bold color={theme.color('accent')}>
          wicket
        </Text>
        <Text dimColor>{` ${item.version}`}</Text>
      </Text>
      <Text dimColor>{`model ${item.model} · ${item.mode} mode`}</Text>
      <Text dimColor wrap="truncate-middle">
        {item.cwd}
      </Text>
      <Text dimColor>/help for commands · shift+tab to change mode · esc to interrupt</Text>
      {item.notes.map((n, i) => (
        <Text key={i} color={theme.color('warn')} wrap="wrap">
          {n}
        </Text>
      ))}
    </Box>
  );
}
