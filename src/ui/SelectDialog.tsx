/**
 * A list to choose one item from (/model, /theme): arrows or j/k move, 1–9 pick by number, Enter
 * takes the highlighted one, Esc leaves without a choice.
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import { useAnswerOnce } from './hooks/use-answer-once.js';
import { useKeys } from './key-router.js';
import { symbols } from './theme.js';
import { useView } from './view-context.js';

export interface PickOption {
  label: string;
  value: string;
  description?: string;
}

export interface SelectDialogProps {
  readonly title: string;
  readonly options: readonly PickOption[];
  /** The option highlighted first (the current value). */
  readonly selected?: number;
  readonly onDone: (value: string | undefined) => void;
}

export function SelectDialog({ title, options, selected = 0, onDone }: SelectDialogProps): React.ReactElement {
  const { theme } = useView();
  const [at, setAtState] = useState(Math.max(0, Math.min(selected, options.length - 1)));
  const cur = useRef(at);
  const setAt = (n: number) => setAtState((cur.current = (n + options.length) % options.length));
  const done = useAnswerOnce(onDone);
  useKeys((input, key) => {
    if (key.escape) return done(undefined);
    if (key.return) return done(options[cur.current]?.value);
    if (key.upArrow || input === 'k') setAt(cur.current - 1);
    else if (key.downArrow || key.tab || input === 'j') setAt(cur.current + 1);
    else if (/^[1-9]$/.test(input) && Number(input) <= options.length) done(options[Number(input) - 1]!.value);
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>{title}</Text>
      {options.map((o, i) => (
        <Box key={o.value}>
          <Text color={i === at ? theme.color('accent') : undefined}>{`${i === at ? symbols.pointer : ' '} ${i + 1}. ${o.label}`}</Text>
          {o.description ? <Text dimColor>{`  ${o.description}`}</Text> : null}
        </Box>
      ))}
      <Text dimColor>Enter to choose · Esc to cancel</Text>
    </Box>
  );
}
