/**
 * Shown before anything starts when a settings file cannot be read as settings (settings/problem.ts):
 * each problem at file:line:column, and a choice. The file may hold deny rules, hooks or other
 * guards, so the default is to exit; going on without it takes an explicit choice ("2", or the arrow
 * then Enter), and is offered only for the user, project and local files. A managed policy or a
 * --settings value that cannot be read offers no way on. Esc or Ctrl-C exits.
 */
import { Box, Text } from 'ink';
import { askBeforeApp } from './ask-before-app.js';
import type React from 'react';
import { canGoOnWithout, problemFiles, problemLine, type SettingsProblem } from '../settings/problem.js';
import { NumberedChoiceList, type NumberedChoice, useNumberedChoices } from './NumberedChoices.js';
import { theme } from './theme.js';

export interface SettingsErrorDialogProps {
  readonly problems: readonly SettingsProblem[];
  /** true: go on without the files; false: exit. */
  readonly onAnswer: (goOn: boolean) => void;
}

export function SettingsErrorDialog({ problems, onAnswer }: SettingsErrorDialogProps): React.ReactElement {
  const files = problemFiles(problems);
  const one = files.length === 1;
  const managed = problems.some((p) => p.source === 'managed');
  const choices: Array<NumberedChoice<boolean>> = [
    { key: '1', value: false, label: one ? 'Exit, and fix the file' : 'Exit, and fix the files' },
    ...(problems.every(canGoOnWithout)
      ? [
          {
            key: '2',
            value: true,
            label: `Continue without ${one ? 'this file' : 'these files'}: ${one ? 'its' : 'their'} deny rules, hooks and settings do not apply`,
          },
        ]
      : []),
  ];
  const selected = useNumberedChoices(choices, onAnswer, false);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('error')} paddingX={1}>
      <Text bold color={theme.color('error')}>
        {managed ? 'The managed settings policy cannot be read' : one ? 'A settings file cannot be read' : 'Settings files cannot be read'}
      </Text>
      <Box marginY={1} flexDirection="column">
        {problems.map((p) => (
          <Box key={problemLine(p)} flexDirection="column">
            <Text wrap="wrap">{problemLine(p)}</Text>
            {p.hint ? <Text dimColor wrap="wrap">{`  ${p.hint}`}</Text> : null}
          </Box>
        ))}
      </Box>
      <Text wrap="wrap">
        {managed
          ? 'Nothing runs until the managed policy can be read. Whoever manages this machine must fix it.'
          : `Nothing has run. ${one ? 'This file' : 'These files'} may hold deny rules, hooks or other guards: fix ${one ? 'it' : 'them'} and start wicket again${choices.length > 1 ? `, or go on without ${one ? 'it' : 'them'} for this session only` : ''}.`}
      </Text>
      <NumberedChoiceList choices={choices} selected={selected} color={theme.color('accent')} />
      <Text dimColor>Enter to confirm · Esc to exit</Text>
    </Box>
  );
}

/** Draws the notice alone, before the app, and resolves with the answer (false, exit, when it is closed unanswered). */
export function askBrokenSettings(problems: readonly SettingsProblem[]): Promise<boolean> {
  return askBeforeApp((onAnswer: (goOn: boolean) => void) => <SettingsErrorDialog problems={problems} onAnswer={onAnswer} />, false);
}
