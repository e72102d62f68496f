/**
 * Asked when the app starts in a folder the person has not trusted (settings/trust.ts): the project's
 * own allow rules and additional directories wait for this answer. 1/2, arrows + Enter; Esc or
 * Ctrl-C answers "no", and the app ends without starting anything.
 */
import { Box, Text } from 'ink';
import { askBeforeApp } from './ask-before-app.js';
import type React from 'react';
import { NumberedChoiceList, type NumberedChoice, useNumberedChoices } from './NumberedChoices.js';
import { theme } from './theme.js';

const CHOICES: ReadonlyArray<NumberedChoice<boolean>> = [
  { key: '1', value: true, label: 'Yes, I trust this folder' },
  { key: '2', value: false, label: 'No, exit' },
];

export interface TrustDialogProps {
  readonly folder: string;
  /** Trust is not saved for this folder (the home folder): say it lasts for this session. */
  readonly sessionOnly: boolean;
  readonly onAnswer: (yes: boolean) => void;
}

export function TrustDialog({ folder, sessionOnly, onAnswer }: TrustDialogProps): React.ReactElement {
  const selected = useNumberedChoices(CHOICES, onAnswer, false);
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
      <NumberedChoiceList choices={CHOICES} selected={selected} color={theme.color('accent')} />
      <Text dimColor>Enter to confirm · Esc to exit</Text>
    </Box>
  );
}

/** Draws the dialog alone, before the app, and resolves with the answer (false when it is closed unanswered). */
export function askTrust(folder: string, sessionOnly: boolean): Promise<boolean> {
  return askBeforeApp((onAnswer: (yes: boolean) => void) => <TrustDialog folder={folder} sessionOnly={sessionOnly} onAnswer={onAnswer} />, false);
}
