/**
 * Esc Esc: pick a prompt of this session to rewind the conversation to (it comes back in the input,
 * to edit and send again). Up/Down, Enter; Esc closes. Files are not put back.
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import { useKeys } from './key-router.js';
import { oneLine } from './rewind.js';
import { symbols } from './theme.js';
import { useView } from './view-context.js';

export interface RewindDialogProps {
  /** Prompts, oldest first. */
  readonly prompts: readonly string[];
  readonly onPick: (index: number) => void;
  readonly onCancel: () => void;
  /** Rows the list may take. */
  readonly maxRows?: number;
}

export function RewindDialog({ prompts, onPick, onCancel, maxRows = 10 }: RewindDialogProps): React.ReactElement {
  const { theme, columns } = useView();
  const [selected, setSelectedState] = useState(prompts.length - 1);
  const sel = useRef(prompts.length - 1);
  const done = useRef(false);
  const setSelected = (n: number) => setSelectedState((sel.current = Math.max(0, Math.min(prompts.length - 1, n))));
  const finish = (f: () => void) => {
    if (done.current) return;
    done.current = true;
    f();
  };
  useKeys((_input, key) => {
    if (key.escape) return finish(onCancel);
    if (key.upArrow) setSelected(sel.current - 1);
    else if (key.downArrow) setSelected(sel.current + 1);
    else if (key.return) finish(() => onPick(sel.current));
  });
  const first = Math.max(0, Math.min(selected - Math.floor(maxRows / 2), prompts.length - maxRows));
  const shown = prompts.slice(first, first + maxRows);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>Rewind the conversation to before:</Text>
      <Box flexDirection="column" marginY={1}>
        {shown.map((p, k) => {
          const i = first + k;
          const on = i === selected;
          return (
            <Text key={i} color={on ? theme.color('accent') : undefined} wrap="truncate-end">
              {`${on ? symbols.pointer : ' '} ${oneLine(p, Math.max(20, columns - 12))}`}
            </Text>
          );
        })}
      </Box>
      <Text dimColor>Enter: rewind and edit that prompt · Esc: close · files changed since then stay as they are</Text>
    </Box>
  );
}
