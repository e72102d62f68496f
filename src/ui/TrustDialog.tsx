/**
 * Asked when the app starts in a folder the person has not trusted (settings/trust.ts): the project's
 * own allow rules and additional directories wait for this answer. 1/2, arrows + Enter; Esc or
 * Ctrl-C answers "no", and the app ends without starting anything.
 */
import { Box, render, Text } from 'ink';
import React, { useRef, useState } from 'react';
import { useKeys } from './key-router.js';
import { symbols, theme } from './theme.js';

const CHOICES = [
  { key: '1', yes: true, label: 'Yes, I trust this folder' },
  { key: '2', yes: false, label: 'No, exit' },
] as const;

export interface TrustDialogProps {
  readonly folder: string;
  /** Trust is not saved for this folder (the home folder): say it lasts for this session. */
  readonly sessionOnly: boolean;
  readonly onAnswer: (yes: boolean) => void;
}

export function TrustDialog({ folder, sessionOnly, onAnswer }: TrustDialogProps): React.ReactElement {
  const [selected, setSelectedState] = useState(0);
  const sel = useRef(0);
  const setSelected = (n: number) => setSelectedState((sel.current = n));
  useKeys((input, key) => {
    if (key.escape) return onAnswer(false);
    const byKey = CHOICES.find((c) => c.key === input);
    if (byKey) return onAnswer(byKey.yes);
    if (key.upArrow || key.downArrow || key.tab) setSelected(1 - sel.current);
    else if (key.return) onAnswer(CHOICES[sel.current]!.yes);
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('warn')} paddingX={1}>
      <Text bold color={theme.color('warn')}>
        Do you trust the files in this folder?
      </Text>
      <Box marginY={1} paddingLeft={2}>
        <Text wrap="wrap">{folder}</Text>
      </Box>
      <Text wrap="wrap">
        wicket will read, change and run files here. A project can also allow commands to run without asking (permissions.allow in its .claude settings); those
        rules apply only in a folder you trust. If you did not write this project or do not know where it comes from, look through it first.
      </Text>
      {sessionOnly ? (
        <Text dimColor wrap="wrap">
          This is your home folder: the answer lasts for this session only.
        </Text>
      ) : null}
      <Box marginTop={1} flexDirection="column">
        {CHOICES.map((c, i) => (
          <Text key={c.key} color={i === selected ? theme.color('accent') : undefined}>
            {`${i === selected ? symbols.pointer : ' '} ${c.key}. ${c.label}`}
          </Text>
        ))}
      </Box>
      <Text dimColor>Enter to confirm · Esc to exit</Text>
    </Box>
  );
}

/** Draws the dialog alone, before the app, and resolves with the answer (false when it is closed unanswered). */
export async function askTrust(folder: string, sessionOnly: boolean): Promise<boolean> {
  let answer = false;
  const instance = render(
    <TrustDialog
      folder={folder}
      sessionOnly={sessionOnly}
      onAnswer={(yes) => {
        answer = yes;
        instance.clear(); // the dialog leaves nothing behind in the scrollback
        instance.unmount();
      }}
    />,
    { exitOnCtrlC: true, patchConsole: false },
  );
  await instance.waitUntilExit().catch(() => undefined);
  instance.cleanup();
  return answer;
}
