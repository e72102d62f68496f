/**
 * What the `hooks` settings key holds (reference/claude-code.md §4.1): the events, the kinds of
 * handler, and the matcher groups they come in. Settings, plugins and agent files parse it
 * (settings/hooks.ts); the hook runner (hooks/), sub-agents and the session read it.
 */
import type { RuleSource } from './rule-parse.js';

/** Events wicket fires. */
export const SUPPORTED_HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
  'SubagentStart',
  'PostToolBatch',
  'PostCompact',
  'StopFailure',
  'Setup',
  'ConfigChange',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'UserPromptExpansion',
  'DirectoryAdded',
  'WorktreeCreate',
  'WorktreeRemove',
  'Elicitation',
  'ElicitationResult',
] as const;
export type HookEvent = (typeof SUPPORTED_HOOK_EVENTS)[number];

/** Claude Code events wicket knows but does not fire (their hooks load with a warning, and never run). */
const OTHER_CLAUDE_EVENTS = ['PermissionDenied', 'MessageDisplay', 'TaskCreated', 'TaskCompleted', 'TeammateIdle'];
export const ALL_CLAUDE_HOOK_EVENTS: readonly string[] = [...SUPPORTED_HOOK_EVENTS, ...OTHER_CLAUDE_EVENTS];

interface HandlerCommon {
  /** Seconds, as written in settings. */
  timeout?: number;
  /** A permission-rule string that must match the call (tool events only). */
  if?: string;
  statusMessage?: string;
  /** Run at most once per session. */
  once?: boolean;
}

export interface CommandHook extends HandlerCommon {
  type: 'command';
  command: string;
  /** Exec form: run `command` with these arguments, no shell. */
  args?: string[];
  /** Run in the background; its output cannot decide anything. */
  async?: boolean;
  shell?: string;
}

/** The event's JSON is POSTed to `url`; a 2xx answer's body is read as a command hook's stdout. */
export interface HttpHook extends HandlerCommon {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
  /** The only variables `$VAR` / `${VAR}` in header values may name. */
  allowedEnvVars?: string[];
}

/** A model judges the event against `prompt` and answers `{"ok": true}` or `{"ok": false, "reason": …}`. */
export interface PromptHook extends HandlerCommon {
  type: 'prompt';
  prompt: string;
  /** An alias or model id; default the small fast model. */
  model?: string;
}

/** A tool of a connected MCP server is called; its text is read as a command hook's stdout. */
export interface McpToolHook extends HandlerCommon {
  type: 'mcp_tool';
  /** The server's name as configured (a plugin's: `plugin:<plugin>:<server>`). */
  server: string;
  tool: string;
  /** The tool's arguments; `${path}` in string values is replaced from the event's JSON (`${tool_input.file_path}`). */
  input?: Record<string, unknown>;
}

/**
 * Like a prompt hook, but a short sub-agent with read-only tools (Read, Grep, Glob) checks the
 * condition before it answers `{"ok": true}` or `{"ok": false, "reason": …}`.
 */
export interface AgentHook extends HandlerCommon {
  type: 'agent';
  prompt: string;
  /** An alias or model id; default the small fast model. */
  model?: string;
}

/**
 * A function of the program that drives wicket through the Agent SDK (the `hooks` of its
 * `initialize` request): the event's JSON goes to it as a `hook_callback` request, and its answer is
 * read as a command hook's JSON output. It never comes from a settings file.
 */
export interface CallbackHook extends HandlerCommon {
  type: 'callback';
  /** The id the program gave the function (`hook_0`). */
  callbackId: string;
  /**
   * What a callback that fails does (an error answer, an answer that is not a JSON object, no answer
   * in time): 'continue' (the default) reports it and goes on; 'block' blocks what the event guards,
   * as a command hook's exit code 2 does. A callback that cannot be delivered at all blocks either way.
   */
  onFailure?: 'continue' | 'block';
}

export type HookHandler = CommandHook | HttpHook | PromptHook | AgentHook | McpToolHook | CallbackHook;

/** What a handler runs, in words: its command, `POST <url>`, `prompt "<text>"`, `agent "<text>"`, `mcp_tool <server>/<tool>` or `callback <id>`. */
export function describeHandler(h: HookHandler): string {
  if (h.type === 'mcp_tool') return `mcp_tool ${h.server}/${h.tool}`;
  if (h.type === 'callback') return `callback ${h.callbackId}`;
  return h.type === 'command' ? h.command : h.type === 'http' ? `POST ${h.url}` : `${h.type} ${JSON.stringify(h.prompt)}`;
}

/** Runs in the background, deciding nothing (command hooks with `async`). */
export function isAsyncHandler(h: HookHandler): boolean {
  return h.type === 'command' && h.async === true;
}

export interface HookGroup {
  event: HookEvent;
  /** Undefined, '' and '*' match everything. */
  matcher?: string;
  hooks: HookHandler[];
  /** `sdk`: the program that drives wicket through the Agent SDK registered it (its initialize request). */
  source: RuleSource | 'plugin' | 'sdk';
  sourcePath?: string;
  /** A plugin's hooks: the plugin's name, and what their environment adds (CLAUDE_PLUGIN_ROOT). */
  plugin?: string;
  env?: Record<string, string>;
  /** The sub-agent whose definition holds this group: it applies only while that agent runs. */
  agent?: string;
}
