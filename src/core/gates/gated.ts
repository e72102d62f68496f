/**
 * What every gate of one call shares (tool-runner.ts runs them in order): the session the runner
 * works for (`RunnerEnv`), the call on its way through gates 3–7 (`Gated`), the refusal a gate
 * gives the model, the finished outcome, and the parse and validation the hooks' and the person's
 * rewrites of an input go through again.
 */
import type { Hooks } from '../../hooks/types.js';
import { pathDenyRule } from '../../permissions/decide.js';
import type { PermissionMode } from '../../base/permission-modes.js';
import type { AskUser, PermissionEffects, PermissionRules } from '../../base/permission-types.js';
import type { CallOutcome, SessionState, Tool, ToolCall, ToolContext } from '../../base/tool.js';
import type { AgentEvent, GateName, ModelResult } from '../../base/events.js';
import { monotonicMs } from '../../base/clock.js';
import { errorMessage } from '../../base/errors.js';
import type { Tracer } from '../gate-tracer.js';
import { formatInputIssues } from '../input-errors.js';

/** What the runner needs from the session. */
export interface RunnerEnv {
  tools: readonly Tool[];
  state: SessionState;
  permission: { mode: PermissionMode; rules: PermissionRules };
  hooks: Hooks;
  askUser: AskUser;
  /** What a PermissionRequest hook's updatedPermissions and interrupt do. */
  permissionEffects?: PermissionEffects;
  base: Omit<ToolContext, 'cwd' | 'readState' | 'signal' | 'toolUseId' | 'permissionMode'>;
  emit: (event: AgentEvent) => void;
  /**
   * Whether a PreToolUse `defer` may park this call (print mode, and the call is its message's only
   * one; it resolves once the message is complete). Undefined: defer is ignored with a warning.
   */
  canDefer?: () => Promise<boolean>;
  /**
   * Awaited before the PreToolUse hooks of a call whose tool is not read-only: the prompt's snapshot
   * scan (started when the stream named the tool) is done first, so that what a hook writes into the
   * project always lands after the snapshot, and a rewind to the prompt undoes it with the call's changes.
   */
  beforeHooks?: () => Promise<void>;
  /** Told before a call whose tool is not read-only runs, once every gate let it (a snapshot of the project is taken once per prompt). */
  beforeChange?: (toolName: string, input: unknown) => Promise<void>;
  /** Deferred tools whose definitions the model has not been given yet (it must load them with ToolSearch). */
  notLoaded?: ReadonlySet<string>;
}

/** One call on its way through gates 3–7: what every gate function needs. */
export interface Gated {
  /** The mode the person chose to go on in, when they approved a plan. */
  nextMode?: 'default' | 'acceptEdits';
  tool: Tool;
  call: ToolCall;
  env: RunnerEnv;
  ctx: ToolContext;
  tracer: Tracer;
  startedAt: number;
}

/** What a PreToolUse hook decided of the permission, handed to the permission gate. */
export type HookDecision = { behavior: 'allow' | 'ask' | 'deny'; by: string; reason?: string };

/** A gate's refusal as the model reads it, naming the gate. */
export function refusal(gate: GateName, message: string): ModelResult {
  return { content: `<tool_use_error>[${gate}] ${message}</tool_use_error>`, isError: true };
}

/** The call's outcome: its result, the trace of its gates and how long it took. */
export function done(result: ModelResult, tracer: Tracer, startedAt: number, extra: Partial<CallOutcome> = {}): CallOutcome {
  return { result, trace: tracer.trace, durationMs: Math.round(monotonicMs() - startedAt), ...extra };
}

export function parseInput(tool: Tool, input: unknown, jsonError?: string): { ok: true; input: unknown } | { ok: false; message: string } {
  if (jsonError) return { ok: false, message: jsonError };
  const result = tool.inputSchema.safeParse(input ?? {});
  if (result.success) return { ok: true, input: result.data };
  return { ok: false, message: formatInputIssues(result.error, input).join('\n') };
}

/**
 * The tool's own validation, unless a deny rule covers one of the call's paths: what validation says
 * (no such file, a similar name, what the file holds) would tell about a denied path, so such a call
 * goes on to the permission gate, which refuses it whether or not the path exists.
 */
export async function validate(tool: Tool, input: unknown, ctx: ToolContext): Promise<string | undefined> {
  if (!tool.validateInput || (ctx.rules && pathDenyRule(tool, input, ctx, ctx.rules))) return undefined;
  try {
    const v = await tool.validateInput(input, ctx);
    return v.ok ? undefined : v.message;
  } catch (err) {
    return errorMessage(err);
  }
}

export function validatedNote(tool: Tool, input: unknown, ctx: ToolContext): ['passed' | 'skipped', string?] {
  if (!tool.validateInput || !ctx.rules || !pathDenyRule(tool, input, ctx, ctx.rules)) return ['passed'];
  return ['skipped', 'a deny rule covers a path of this call; the permission gate decides'];
}
