/**
 * Safe mode (`--safe-mode`, or CLAUDE_CODE_SAFE_MODE=1): a session without the customizations read
 * from disk, to find out whether one of them is what misbehaves. Left out: CLAUDE.md files, skills,
 * custom commands and agents, plugins, hooks, MCP servers, the status line and the output style.
 * Still in force: credentials, the model, the built-in tools and agents, permission rules, and the
 * managed policy (its hooks and status line too). What this command line names (--mcp-config,
 * --agents, --settings) applies as given.
 */

/** On globalThis: the app's bundle has its own copy of this module. */
const KEY = Symbol.for('wicket.safeMode');
type Slot = { [KEY]?: boolean };

/** Whether the flag or the variable asks for it. */
export function safeModeWanted(flag: boolean, env: Record<string, string | undefined>): boolean {
  const v = env.CLAUDE_CODE_SAFE_MODE?.trim().toLowerCase();
  return flag || (v !== undefined && v !== '' && v !== '0' && v !== 'false' && v !== 'no' && v !== 'off');
}

/** Set once, as the session starts: the loaders of skills, commands and agents read it. */
export function setSafeMode(value: boolean): void {
  (globalThis as Slot)[KEY] = value;
}

export function inSafeMode(): boolean {
  return (globalThis as Slot)[KEY] === true;
}

/** The settings keys whose values come from the managed policy only in safe mode. */
export const MANAGED_ONLY_IN_SAFE_MODE = ['statusLine', 'outputStyle', 'enabledPlugins', 'enableAllProjectMcpServers', 'enabledMcpjsonServers'] as const;

/** One line for the app's banner. */
export const SAFE_MODE_NOTE =
  'Safe mode: CLAUDE.md, skills, custom commands and agents, plugins, hooks, MCP servers, the status line and the output style are off (the managed policy still applies).';
