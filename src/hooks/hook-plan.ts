/**
 * Which hook handlers an event runs (create.ts): the groups whose matcher fits, handlers whose `if`
 * rule fits the call, each distinct handler once, `once` handlers not yet run; and the fields every
 * event's payload carries.
 */
import { homedir } from 'node:os';
import type { HookEvent, HookGroup, HookHandler } from '../base/hook-config.js';
import { describeHandler } from '../base/hook-config.js';
import type { PermissionMode } from '../base/permission-modes.js';
import { ReadState } from '../base/read-state.js';
import type { PermissionContext, Tool } from '../base/tool.js';
import type { HookCallbackRunner } from './run-callback.js';
import type { HookAgentRunner } from './run-agent.js';
import type { McpHookHolder } from './run-mcp-tool.js';
import type { AskModel } from './run-prompt.js';
import { ifRuleMatches, matcherMatches } from './matcher.js';
import { handlerKey } from './run-handler.js';
import type { HookLifecycleEvent, ToolHookCall } from './types.js';

export interface HooksContext {
  sessionId: string;
  cwd: string;
  projectRoot: string;
  transcriptPath: string;
  getPermissionMode: () => string;
  /** The session's effort level, when one is set (hooks see it as `effort.level` and CLAUDE_EFFORT). */
  getEffort?: () => string | undefined;
  env: Record<string, string | undefined>;
  /** The session's current directory when it moved (Bash `cd`); defaults to `cwd`. */
  getCwd?: () => string;
  /** The tools, so handler `if` rules with a specifier (`Bash(git *)`) can be judged; without them such hooks always run. */
  tools?: readonly Tool[];
  /** Seconds for hooks that give no timeout; default 600 (UserPromptSubmit: 30). */
  defaultTimeoutSec?: number;
  /** Told when each hook starts and finishes (stream-json's --include-hook-events). */
  onHookEvent?: (e: HookLifecycleEvent) => void;
  /** The model `type: "prompt"` hooks ask; without it they fail (a non-blocking error). */
  askModel?: AskModel;
  /** Starts the sub-agent of a `type: "agent"` hook; without it such hooks fail (a non-blocking error). */
  runAgent?: HookAgentRunner;
  /** Where SessionStart, Setup and CwdChanged hooks write `export` lines for later Bash commands (CLAUDE_ENV_FILE). */
  envFileDir?: string;
  /** The MCP servers `type: "mcp_tool"` hooks call, once the session has them; without them such hooks fail (non-blocking). */
  mcp?: McpHookHolder;
  /** Delivers `type: "callback"` hooks (the Agent SDK host's) and brings back their answers. */
  hookCallback?: HookCallbackRunner;
}

export interface Planned {
  hook: HookHandler;
  label: string;
  key: string;
  /** `Event:matched value` (`PreToolUse:Bash`, `SessionStart:startup`), or the event alone. */
  name: string;
  /** Added to the environment (a plugin's CLAUDE_PLUGIN_ROOT). */
  env?: Record<string, string>;
}

/** The handlers to run for an event: matcher and `if` fit, each distinct command once, `once` hooks not yet run. */
export function planHandlers(
  groups: readonly HookGroup[],
  ctx: HooksContext,
  onceRan: ReadonlySet<string>,
  event: HookEvent,
  matchValue: string | undefined,
  call?: ToolHookCall,
): Planned[] {
  const seen = new Set<string>();
  const out: Planned[] = [];
  const pctx = call && ctx.tools ? permissionContext(ctx) : undefined;
  for (const group of groups) {
    if (group.event !== event || (matchValue !== undefined && !matcherMatches(group.matcher, matchValue))) continue;
    for (const hook of group.hooks) {
      if (hook.if && call && !ifRuleMatches(hook.if, call, findTool(ctx.tools, call.toolName), pctx)) continue;
      const key = handlerKey(hook);
      if (seen.has(key) || (hook.once && onceRan.has(key))) continue;
      seen.add(key);
      const name = matchValue === undefined ? event : `${event}:${matchValue}`;
      const from = group.plugin ? `plugin ${group.plugin}` : group.agent ? `agent ${group.agent}` : group.source;
      out.push({ hook, key, name, label: `${event} hook "${shorten(describeHandler(hook))}" [${from}]`, ...(group.env ? { env: group.env } : {}) });
    }
  }
  return out;
}

export function commonPayload(ctx: HooksContext, event: HookEvent): Record<string, unknown> {
  const effort = ctx.getEffort?.();
  return {
    session_id: ctx.sessionId,
    transcript_path: ctx.transcriptPath,
    cwd: currentCwd(ctx),
    hook_event_name: event,
    permission_mode: ctx.getPermissionMode(),
    ...(effort ? { effort: { level: effort } } : {}),
  };
}

export function currentCwd(ctx: HooksContext): string {
  return ctx.getCwd?.() ?? ctx.cwd;
}

/** One line, at most 80 characters; the end (usually the script name) is kept. */
function shorten(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 30)}...${one.slice(-47)}` : one;
}

function findTool(tools: readonly Tool[] | undefined, name: string): Tool | undefined {
  return tools?.find((t) => t.name === name || t.aliases?.includes(name));
}

/** Enough of a permission context to judge an `if` rule's path or command. */
function permissionContext(ctx: HooksContext): PermissionContext | undefined {
  if (!ctx.tools) return undefined;
  return {
    cwd: currentCwd(ctx),
    projectRoot: ctx.projectRoot,
    additionalDirs: [],
    homeDir: ctx.env.HOME ?? homedir(),
    wicketHome: '',
    sessionId: ctx.sessionId,
    permissionMode: ctx.getPermissionMode() as PermissionMode,
    readState: new ReadState(),
    env: ctx.env,
    settings: {},
  };
}
