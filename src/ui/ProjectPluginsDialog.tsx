/**
 * Asked when the app starts in a trusted folder whose settings name plugin marketplaces
 * (`extraKnownMarketplaces`) or enable plugins (`enabledPlugins`) this machine does not have
 * (plugins/project-plugins.ts): "Yes" adds the marketplaces and installs the plugins before the
 * session starts, so it has them from its first prompt; "Not now" asks again next time; "No"
 * remembers the answer for this set. 1/2/3, arrows + Enter; Esc is "Not now".
 */
import { Box, Text } from 'ink';
import { askBeforeApp } from './ask-before-app.js';
import type React from 'react';
import type { ManageContext } from '../plugins/manage-context.js';
import { addMissing, type MissingPlugins, missingPlugins, nothingMissing, rememberDeclined, wasDeclined } from '../plugins/project-plugins.js';
import { describeSource } from '../plugins/marketplace-source.js';
import { NumberedChoiceList, type NumberedChoice, useNumberedChoices } from './NumberedChoices.js';
import { theme } from './theme.js';

type Answer = 'yes' | 'later' | 'never';

const CHOICES: ReadonlyArray<NumberedChoice<Answer>> = [
  { key: '1', value: 'yes', label: 'Yes, add them now' },
  { key: '2', value: 'later', label: 'Not now' },
  { key: '3', value: 'never', label: 'No, and do not ask again for these' },
];

export interface ProjectPluginsDialogProps {
  readonly missing: MissingPlugins;
  readonly onAnswer: (answer: Answer) => void;
}

export function ProjectPluginsDialog({ missing, onAnswer }: ProjectPluginsDialogProps): React.ReactElement {
  const selected = useNumberedChoices(CHOICES, onAnswer, 'later');
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold color={theme.color('accent')}>
        Plugins for this project
      </Text>
      <Text wrap="wrap">The settings here name plugins this machine does not have yet:</Text>
      <Box marginY={1} paddingLeft={2} flexDirection="column">
        {missing.marketplaces.map((m) => (
          <Text key={`m:${m.name}`} wrap="truncate-end">{`marketplace ${m.name}  ${describeSource(m.source)}`}</Text>
        ))}
        {missing.plugins.map((p) => (
          <Text key={`p:${p.id}`} wrap="truncate-end">{`plugin ${p.id}  (${p.scope} scope)`}</Text>
        ))}
      </Box>
      <Text wrap="wrap">
        wicket fetches them with git and installs them where Claude Code keeps its plugins. A plugin's commands, hooks and MCP servers run on this machine: add
        only plugins you trust.
      </Text>
      <NumberedChoiceList choices={CHOICES} selected={selected} color={theme.color('accent')} />
      <Text dimColor>Enter to confirm · Esc for not now</Text>
    </Box>
  );
}

function ask(missing: MissingPlugins): Promise<Answer> {
  // This one is not cleared when answered (clear: false).
  return askBeforeApp((onAnswer: (a: Answer) => void) => <ProjectPluginsDialog missing={missing} onAnswer={onAnswer} />, 'later' as Answer, false);
}

/**
 * Before the session is set up: offers what the settings name and this machine lacks, and adds it
 * when the person agrees (progress on stdout). Returns lines for the banner.
 */
export async function offerProjectPlugins(ctx: ManageContext, merged: Record<string, unknown>, wicketHome: string): Promise<string[]> {
  const missing = missingPlugins(ctx, merged);
  if (nothingMissing(missing) || (await wasDeclined(wicketHome, ctx.cwd, missing))) return [];
  const answer = await ask(missing);
  if (answer === 'never') {
    await rememberDeclined(wicketHome, ctx.cwd, missing).catch(() => undefined);
    return [];
  }
  if (answer === 'later') return [];
  const done = await addMissing(ctx, missing, (line) => process.stdout.write(`${line}\n`));
  return done.failed ? done.lines : [`Plugins for this project: ${done.lines.join(' ')}`];
}
