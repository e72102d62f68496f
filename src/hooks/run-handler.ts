/**
 * One handler of any type, run with the event's JSON: a command, an http POST, a prompt to a model,
 * or a call to an MCP server's tool. Each gives what a command would have (exit code, stdout,
 * stderr), so the gate reads them all the same way. Never throws.
 */
import type { HookHandler } from './config.js';
import { runHookCommand, type HookRunOptions, type HookRunResult } from './run-command.js';
import { runHttpHook } from './run-http.js';
import { runMcpToolHook, type McpHookHolder } from './run-mcp-tool.js';
import { runPromptHook, type AskModel } from './run-prompt.js';
import type { HookLifecycleEvent } from './types.js';

export interface HandlerDeps {
  askModel?: AskModel | undefined;
  mcp?: McpHookHolder | undefined;
}

export function runHandler(h: HookHandler, event: string, stdin: string, deps: HandlerDeps, opts: HookRunOptions): Promise<HookRunResult> {
  switch (h.type) {
    case 'command':
      return runHookCommand(h, stdin, opts);
    case 'http':
      return runHttpHook(h, stdin, opts);
    case 'prompt':
      return runPromptHook(h, event, stdin, deps.askModel, opts);
    case 'mcp_tool':
      return runMcpToolHook(h, stdin, deps.mcp, opts);
  }
}

/** Identical handlers (from several settings files) run once: what makes two the same. */
export function handlerKey(hook: HookHandler): string {
  switch (hook.type) {
    case 'command':
      return JSON.stringify([hook.command, hook.args ?? null, hook.shell ?? null]);
    case 'http':
      return JSON.stringify([hook.type, hook.url, hook.headers ?? null]);
    case 'prompt':
      return JSON.stringify([hook.type, hook.prompt, hook.model ?? null]);
    case 'mcp_tool':
      return JSON.stringify([hook.type, hook.server, hook.tool, hook.input ?? null]);
  }
}

/** A finished handler, as stream-json's `hook_response` reports it. */
export function hookResponse(ids: { hook_id: string; hook_name: string; hook_event: string }, r: HookRunResult): HookLifecycleEvent {
  const outcome = r.aborted ? 'cancelled' : r.exitCode === 0 ? 'success' : 'error';
  const stderr = r.spawnError ?? (r.timedOut ? `${r.stderr}timed out` : r.stderr);
  return { subtype: 'hook_response', ...ids, output: r.stdout + stderr, stdout: r.stdout, stderr, ...(r.exitCode !== undefined ? { exit_code: r.exitCode } : {}), outcome };
}
