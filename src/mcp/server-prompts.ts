/**
 * The connected MCP servers' prompts as slash commands (`/mcp__<server>__<prompt> word word…`), and
 * such a command expanded into the prompt's text by the server that offers it.
 */
import { splitArgs } from '../commands/custom-commands.js';
import { mcpToolName } from './tool.js';
import type { McpConnection } from './types.js';

export interface McpPromptCommand {
  /** `mcp__<server>__<prompt>`, typed after a slash. */
  command: string;
  server: string;
  name: string;
  description: string;
  argNames: string[];
  required: string[];
}

/** The prompts of the connected servers, as slash commands `/mcp__<server>__<prompt>`. */
export function promptCommands(connections: ReadonlyMap<string, McpConnection>): McpPromptCommand[] {
  const out: McpPromptCommand[] = [];
  for (const [server, c] of connections) {
    for (const p of c.prompts) {
      const args = p.arguments ?? [];
      out.push({
        command: mcpToolName(server, p.name),
        server,
        name: p.name,
        description: p.description ?? `MCP prompt of ${server}`,
        argNames: args.map((a) => a.name),
        required: args.filter((a) => a.required).map((a) => a.name),
      });
    }
  }
  return out;
}

/**
 * `/mcp__server__prompt word word…` → the prompt's text, with the words given to its arguments in
 * order (the last takes the rest). Undefined when the text names no prompt of a connected server.
 */
export async function expandPromptCommand(
  text: string,
  connections: ReadonlyMap<string, McpConnection>,
): Promise<{ ok: true; text: string } | { ok: false; message: string } | undefined> {
  const m = /^\/(mcp__\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const found = m && promptCommands(connections).find((p) => p.command === m[1]);
  if (!m || !found) return undefined;
  const words = splitArgs(m[2] ?? '');
  const args: Record<string, string> = {};
  found.argNames.forEach((name, i) => {
    const value = i === found.argNames.length - 1 ? words.slice(i).join(' ') : words[i];
    if (value) args[name] = value;
  });
  const missing = found.required.filter((n) => !args[n]);
  if (missing.length)
    return { ok: false, message: `/${found.command} needs ${missing.join(', ')}: /${found.command} ${found.argNames.map((n) => `<${n}>`).join(' ')}` };
  try {
    return { ok: true, text: await connections.get(found.server)!.getPrompt(found.name, args) };
  } catch (err) {
    return { ok: false, message: `/${found.command} failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
