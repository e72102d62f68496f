/** Custom commands (src/commands/custom-commands.ts) as slash commands of the interactive app. */
import { expandCustomCommand, loadCustomCommands as loadDefinitions } from '../../commands/custom-commands.js';
import type { SlashCommand } from './types.js';

export { expandArguments, parseFrontmatter, splitArgs } from '../../commands/custom-commands.js';

export function loadCustomCommands(projectRoot: string, configDir: string): SlashCommand[] {
  return loadDefinitions(projectRoot, configDir).map((cmd) => ({
    name: cmd.name,
    description: cmd.description,
    ...(cmd.argumentHint ? { argumentHint: cmd.argumentHint } : {}),
    source: cmd.source,
    run: (args, session) => ({ kind: 'prompt', text: expandCustomCommand(cmd, args, { projectDir: session.options.projectRoot, sessionId: session.options.sessionId }) }),
  }));
}
