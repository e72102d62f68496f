/**
 * stdio MCP servers in the sandbox. With `sandbox.enabled`, a server the session starts runs inside
 * bubblewrap under the same read masks, write limits and network proxy as Bash's commands, unless
 * its entry says `"sandbox": false` (refused when sandbox.allowUnsandboxedCommands is false). HTTP,
 * SSE and WebSocket servers are not started by wicket and are not affected.
 */
import { readSandboxSettings, sandboxProgram, type SandboxContext, type SandboxedProgram } from '../sandbox/index.js';
import type { McpTransportConfig } from './config.js';

export type StdioSandbox = (program: { command: string; args: string[]; optOut: boolean }) => Promise<SandboxedProgram>;

/** The way stdio servers are put in the sandbox, when the settings turn it on. */
export function stdioSandbox(ctx: SandboxContext): StdioSandbox | undefined {
  const s = readSandboxSettings(ctx.settings, ctx);
  if (!s.enabled) return undefined;
  return (p) => sandboxProgram(s, ctx, p);
}

/** For the person: where a server runs, when the sandbox is on ('' for servers wicket does not start). */
export function sandboxLabel(config: McpTransportConfig | undefined, settings: Record<string, unknown>): string {
  const on = (settings.sandbox as { enabled?: unknown } | undefined)?.enabled === true;
  if (!on || config?.type !== 'stdio') return '';
  return config.sandbox === false ? 'outside the sandbox ("sandbox": false)' : 'in the sandbox';
}
