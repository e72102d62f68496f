/**
 * The numbered choice list of the app's small dialogs (trust, broken settings, project plugins, an
 * MCP server to approve): a digit answers at once, the arrows and Tab move the pointer, Enter takes
 * the choice under it, Esc gives the dialog's cautious answer.
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import { useKeys } from './key-router.js';
import { symbols } from './theme.js';

export interface NumberedChoice<T> {
  readonly key: string;
  readonly value: T;
  readonly label: string;
}

/** Handles the keys of a choice list and returns the index under the pointer. */
export function useNumberedChoices<T>(choices: ReadonlyArray<NumberedChoice<T>>, onAnswer: (value: T) => void, onEscape: T): number {
  const [selected, setSelectedState] = useState(0);
  const sel = useRef(0);
  const move = (by: number) => setSelectedState((sel.current = (sel.current + by + choices.length) % choices.length));
  useKeys((input, key) => {
    if (key.escape) return onAnswer(onEscape);
    const byKey = choices.find((c) => c.key === input);
    if (byKey) return onAnswer(byKey.value);
    if (key.upArrow) move(-1);
    else if (key.downArrow || key.tab) move(1);
    else if (key.return) onAnswer(choices[sel.current]!.value);
  });
  return selected;
}

export function NumberedChoiceList<T>({
  choices,
  selected,
  color,
}: {
  choices: ReadonlyArray<NumberedChoice<T>>;
  selected: number;
  color: string | undefined;
}): React.ReactElement {
  return (
    <Box marginTop={1} flexDirection="column">
      {choices.map((c, i) => (
        <Text key={c.key} color={i === selected ? color : undefined}>
          {`${i === selected ? symbols.pointer : ' '} ${c.key}. ${c.label}`}
        </Text>
      ))}
    </Box>
  );
}
