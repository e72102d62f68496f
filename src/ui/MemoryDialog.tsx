/**
 * `# text` in the prompt: which memory file the line goes to (Claude Code's memory shortcut). Digits,
 * arrows + Enter; Esc leaves the text unsaved.
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import type { MemoryTarget } from '../session/memory/quick-add.js';
import { useKeys } from './key-router.js';
import { symbols, theme } from './theme.js';

export interface MemoryDialogProps {
  readonly note: string;
  readonly targets: readonly MemoryTarget[];
  readonly onChoose: (target: MemoryTarget | undefined) => void;
}

export function MemoryDialog({ note, targets, onChoose }: MemoryDialogProps): React.ReactElement {
  const [selected, setSelectedState] = useState(0);
  const sel = useRef(0);
  const setSelected = (n: number) => setSelectedState((sel.current = (n + targets.length) % targets.length));
  useKeys((input, key) => {
    if (key.escape) return onChoose(undefined);
    const n = Number(input);
    if (Number.isInteger(n) && n >= 1 && n <= targets.length) return onChoose(targets[n - 1]);
    if (key.upArrow) setSelected(sel.current - 1);
    else if (key.downArrow || key.tab) setSelected(sel.current + 1);
    else if (key.return) onChoose(targets[sel.current]);
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>Where should this go?</Text>
      <Box marginY={1} paddingLeft={2}>
        <Text wrap="wrap">{`- ${note}`}</Text>
      </Box>
      {targets.map((t, i) => (
        <Text key={t.name} color={i === selected ? theme.color('accent') : undefined} wrap="truncate-end">
          {`${i === selected ? symbols.pointer : ' '} ${i + 1}. ${t.label} (${t.note}) ${t.file}`}
        </Text>
      ))}
      <Text dimColor>Enter to save · Esc to cancel</Text>
    </Box>
  );
}
