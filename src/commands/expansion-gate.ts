/**
 * UserPromptExpansion around a typed slash command (a custom command, a skill, a plugin's command, an
 * MCP prompt, /init): the hooks run before the command expands, so a blocked command's inline shell
 * never runs. A block's reason is for the person; the hooks' context goes to the model with the
 * expanded prompt. Print mode and the app both go through here.
 */
import type { Hooks, PromptExpansion } from '../hooks/types.js';

export type ExpansionGate = { ok: true; context?: string; notices: string[] } | { ok: false; message: string; notices: string[] };

/** Where a command comes from, in the names Claude Code gives hooks (`command_source`). */
export type CommandOrigin = 'project' | 'user' | 'plugin' | 'builtin' | 'mcp';

export function expansionOf(name: string, args: string, origin: CommandOrigin, typed: string): PromptExpansion {
  return {
    expansionType: origin === 'mcp' ? 'mcp_prompt' : 'slash_command',
    commandName: name,
    commandArgs: args,
    commandSource: origin === 'project' ? 'projectSettings' : origin === 'user' ? 'userSettings' : origin,
    prompt: typed.trim(),
  };
}

export async function gateExpansion(hooks: Hooks, info: PromptExpansion, signal: AbortSignal): Promise<ExpansionGate> {
  if (!hooks.userPromptExpansion) return { ok: true, notices: [] };
  const out = await hooks.userPromptExpansion(info, signal);
  const notices = hooks.drainNotices?.() ?? [];
  const reason = out.block ?? out.stop;
  if (reason !== undefined) return { ok: false, message: `/${info.commandName} was blocked by a UserPromptExpansion hook: ${reason}`, notices };
  return { ok: true, ...(out.additionalContext ? { context: out.additionalContext } : {}), notices };
}
