/** Finding and running a slash command from what was typed. */
import { BUILTIN_COMMANDS } from './builtin.js';
import { parseSlash } from '../../commands/custom-commands.js';
import { loadCustomCommands } from './custom.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

export function allCommands(projectRoot: string, configDir: string): SlashCommand[] {
  const builtinNames = new Set(BUILTIN_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
  return [...BUILTIN_COMMANDS, ...loadCustomCommands(projectRoot, configDir).filter((c) => !builtinNames.has(c.name))];
}

export { parseSlash };

export function findCommand(commands: readonly SlashCommand[], name: string): SlashCommand | undefined {
  return commands.find((c) => c.name === name) ?? commands.find((c) => c.aliases?.includes(name));
}

/** Commands whose name starts with what was typed after `/`, for the hint list and Tab. */
export function matchCommands(commands: readonly SlashCommand[], typed: string): SlashCommand[] {
  const m = /^\/(\S*)$/.exec(typed);
  if (!m) return [];
  return commands.filter((c) => c.name.startsWith(m[1]!) || c.aliases?.some((a) => a.startsWith(m[1]!)));
}

export async function runCommand(commands: readonly SlashCommand[], text: string, session: SessionControl): Promise<CommandResult | undefined> {
  const parsed = parseSlash(text);
  if (!parsed) return undefined;
  const cmd = findCommand(commands, parsed.name);
  if (!cmd) return undefined;
  try {
    return await cmd.run(parsed.args, session);
  } catch (err) {
    return { kind: 'info', tone: 'error', text: `/${cmd.name} failed: ${(err as Error).message}` };
  }
}

export type { CommandResult, SessionControl, SlashCommand };
