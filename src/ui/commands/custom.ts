/** Custom commands (src/commands/custom-commands.ts) as slash commands of the interactive app. */
import { loadCustomCommands as loadDefinitions, renderCustomCommand } from '../../commands/custom-commands.js';
import { inlineBashRunner } from '../../core/inline-bash.js';
import type { SlashCommand } from './types.js';

export { expandArguments, splitArgs } from '../../commands/custom-commands.js';
export { parseFrontmatter } from '../../settings/frontmatter.js';

export function loadCustomCommands(projectRoot: string, configDir: string): SlashCommand[] {
  return loadDefinitions(projectRoot, configDir).map((cmd) => ({
    name: cmd.name,
    description: cmd.description,
    ...(cmd.argumentHint ? { argumentHint: cmd.argumentHint } : {}),
    source: cmd.source,
    expands: true,
    async run(args, session) {
      const ctx = { projectDir: session.options.projectRoot, sessionId: session.options.sessionId };
      const r = await renderCustomCommand(cmd, args, ctx, inlineBashRunner({ ...session.options, signal: new AbortController().signal }));
      return r.ok ? { kind: 'prompt', text: r.text, allowedTools: r.allowedTools } : { kind: 'info', tone: 'error', text: r.message };
    },
  }));
}
