/**
 * One handler of any type, run with the event's JSON: a command, an http POST, a prompt to a model,
 * a sub-agent that checks a condition, or a call to an MCP server's tool. Each gives what a command
 * would have (exit code, stdout, stderr), so the gate reads them all the same way. Never throws.
 */
import type { HookHandler } from '../base/hook-config.js';
import { runHookCommand, type HookRunOptions, type HookRunResult } from './run-command.js';
import { runHttpHook } from './run-http.js';
import { runMcpToolHook, type McpHookHolder } from './run-mcp-tool.js';
import { runPromptHook, type AskModel } from './run-prompt.js';
import { runAgentHook, type AgentHookDeps } from './run-agent.js';
import { runCallbackHook, type HookCallbackRunner } from './run-callback.js';
import type { HookLifecycleEvent } from './types.js';

export interface HandlerDeps extends AgentHookDeps {
  askModel?: AskModel | undefined;
  mcp?: McpHookHolder | undefined;
  /** Delivers `type: "callback"` hooks to the SDK host; without it they block (they cannot be delivered). */
  hookCallback?: HookCallbackRunner | undefined;
}

const DEFAULT_TIMEOUT_SEC = 600;
const PROMPT_TIMEOUT_SEC = 30;
const AGENT_TIMEOUT_SEC = 60;

/** Seconds a handler without its own `timeout` gets: agent 60, prompt (and any UserPromptSubmit hook) 30, else the session's default (600). */
export function defaultTimeoutSec(h: HookHandler, event: string, sessionDefault = DEFAULT_TIMEOUT_SEC): number {
  if (h.type === 'agent') return AGENT_TIMEOUT_SEC;
  return event === 'UserPromptSubmit' || h.type === 'prompt' ? PROMPT_TIMEOUT_SEC : sessionDefault;
}

export function runHandler(h: HookHandler, event: string, stdin: string, deps: HandlerDeps, opts: HookRunOptions): Promise<HookRunResult> {
  switch (h.type) {
    case 'command':
      return runHookCommand(h, stdin, opts);
    case 'http':
      return runHttpHook(h, stdin, opts);
    case 'prompt':
      return runPromptHook(h, event, stdin, deps.askModel, opts);
    case 'agent':
      return runAgentHook(h, event, stdin, deps, opts);
    case 'mcp_tool':
      return runMcpToolHook(h, stdin, deps.mcp, opts);
    case 'callback':
      return runCallbackHook(h, event, stdin, deps.hookCallback, opts);
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
    case 'agent':
      return JSON.stringify([hook.type, hook.prompt, hook.model ?? null]);
    case 'mcp_tool':
      return JSON.stringify([hook.type, hook.server, hook.tool, hook.input ?? null]);
    case 'callback':
      return JSON.stringify([hook.type, hook.callbackId]);
  }
}

/** A finished handler, as stream-json's `hook_response` reports it. */
export function hookResponse(ids: { hook_id: string; hook_name: string; hook_event: string }, r: HookRunResult): HookLifecycleEvent {
  const outcome = r.aborted ? 'cancelled' : r.exitCode === 0 ? 'success' : 'error';
  const stderr = r.spawnError ?? (r.timedOut ? `${r.stderr}timed out` : r.stderr);
  return {
    subtype: 'hook_response',
    ...ids,
    output: r.stdout + stderr,
    stdout: r.stdout,
    stderr,
    ...(r.exitCode !== undefined ? { exit_code: r.exitCode } : {}),
    outcome,
  };
}
