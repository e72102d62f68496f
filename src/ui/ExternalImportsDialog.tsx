/**
 * Asked once per project when the app starts and the project's instruction files import files from
 * outside the working directory (Claude Code's "Allow external CLAUDE.md file imports?", in its
 * words): the answer is saved in `~/.claude.json` (settings/external-imports.ts) and never asked
 * again. "No" comes first; Esc answers "no"; Ctrl-C ends the app without an answer.
 */
import { Box, Text } from 'ink';
import { askBeforeApp } from './ask-before-app.js';
import type React from 'react';
import { NumberedChoiceList, type NumberedChoice, useNumberedChoices } from './NumberedChoices.js';
import { theme } from './theme.js';

const CHOICES: ReadonlyArray<NumberedChoice<boolean>> = [
  { key: '1', value: false, label: 'No, disable external imports' },
  { key: '2', value: true, label: 'Yes, allow external imports' },
];
/** Up to this many imports are listed; past it, two fewer and a count of the rest (as Claude Code shows them). */
const MAX_LISTED = 8;

export interface ExternalImportsDialogProps {
  readonly imports: readonly string[];
  readonly onAnswer: (approved: boolean) => void;
}

export function ExternalImportsDialog({ imports, onAnswer }: ExternalImportsDialogProps): React.ReactElement {
  const selected = useNumberedChoices(CHOICES, onAnswer, false);
  const shown = imports.length <= MAX_LISTED ? imports : imports.slice(0, MAX_LISTED - 2);
  const rest = imports.length - shown.length;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('warn')} paddingX={1}>
      <Text bold color={theme.color('warn')}>
        Allow external CLAUDE.md file imports?
      </Text>
      <Box marginY={1}>
        <Text wrap="wrap">
          This project's CLAUDE.md or .claude/rules imports files outside the current working directory. Never allow this for third-party repositories.
        </Text>
      </Box>
      {imports.length ? <Text dimColor>External imports:</Text> : null}
      {shown.map((file) => (
        <Text key={file} dimColor wrap="truncate-middle">{`  ${file}`}</Text>
      ))}
      {rest > 0 ? (
        <>
          <Text dimColor wrap="truncate">{`  \u2026 +${rest} ${rest === 1 ? 'import' : 'imports'} not shown.`}</Text>
          <Text dimColor wrap="truncate">
            {'  '}Yes covers those too, plus any this project adds later.
          </Text>
        </>
      ) : null}
      <Box marginTop={1}>
        <Text dimColor wrap="wrap">
          Important: only use wicket with files you trust. Files read as instructions steer what the model does.
        </Text>
      </Box>
      <NumberedChoiceList choices={CHOICES} selected={selected} color={theme.color('accent')} />
      <Text dimColor>Enter to confirm · Esc to disable</Text>
    </Box>
  );
}

/** Draws the dialog alone, before the app; resolves with the answer, or undefined when Ctrl-C closed it unanswered. */
export function askExternalImports(imports: readonly string[]): Promise<boolean | undefined> {
  return askBeforeApp<boolean, undefined>((onAnswer) => <ExternalImportsDialog imports={imports} onAnswer={onAnswer} />, undefined);
}
