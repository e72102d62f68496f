/**
 * The hints under the prompt and what Tab puts in it: slash commands while a command name is being
 * typed, and the MCP servers' resources while an `@` word is (`@server:uri`, matched anywhere in
 * the server, URI or name).
 */
import type { McpServerResource } from '../mcp/servers.js';
import { matchCommands, type SlashCommand } from './commands/index.js';

export interface Hint {
  /** What the list shows in bold: `/name`, `@server:uri`. */
  label: string;
  description: string;
  /** The whole line once the hint is taken (Tab). */
  text: string;
}

/** At most this many hints are shown. */
const MAX_HINTS = 6;

export function hintsFor(typed: string, commands: readonly SlashCommand[], resources: readonly McpServerResource[]): Hint[] {
  const cmds = matchCommands(commands, typed);
  if (cmds.length) return cmds.slice(0, MAX_HINTS).map((c) => ({ label: `/${c.name}`, description: c.description, text: `/${c.name} ` }));
  return resourceHints(typed, resources);
}

/** Resources for the `@` word at the end of the line; none when the line does not end in one. */
export function resourceHints(typed: string, resources: readonly McpServerResource[]): Hint[] {
  const m = /(^|\s)@([^\s"]*)$/.exec(typed);
  if (!m || !resources.length) return [];
  const query = m[2]!.toLowerCase();
  const head = typed.slice(0, m.index + m[1]!.length);
  return resources
    .filter((r) => `${r.server}:${r.uri}`.toLowerCase().includes(query) || r.name.toLowerCase().includes(query))
    .slice(0, MAX_HINTS)
    .map((r) => ({
      label: `@${r.server}:${r.uri}`,
      description: [r.title ?? r.name, r.description].filter(Boolean).join(' · ') || `resource of ${r.server}`,
      text: `${head}@${r.server}:${r.uri} `,
    }));
}
