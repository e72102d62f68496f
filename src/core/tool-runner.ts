/**
 * The gates for ONE call, in one fixed order (PRODUCT.md §2):
 *   1 find → 2 parse → 3 validate → 4 PreToolUse hooks → 5 permission → 6 execute → 7 map → PostToolUse
 * Each gate is a small named function returning either "continue" or a finished result. Model
 * mistakes never throw: they become an `is_error` result naming the gate. Every gate leaves a record
 * in the trace. Gates 1–3 are here; the others are in `gates/` (the hooks, the permission, the call).
 */
import type { CallOutcome, Tool, ToolCall, ToolContext } from '../base/tool.js';
import type { GateName, GateTrace, ModelResult } from '../base/events.js';
import { findTool } from '../tools/registry.js';
import { monotonicMs } from '../base/clock.js';
import { Tracer } from './gate-tracer.js';
import { finishExecution } from './gates/execute.js';
import { done, type Gated, parseInput, refusal, type RunnerEnv, validate, validatedNote } from './gates/gated.js';
import { checkPermission } from './gates/permission-gate.js';
import { runPreHooks } from './gates/pre-tool-hooks.js';

export type { RunnerEnv } from './gates/gated.js';

/** A call after gates 1–2: the tool and its parsed input, or a finished refusal. */
export type Prepared =
  | { kind: 'done'; outcome: CallOutcome }
  | { kind: 'ready'; call: ToolCall; tool: Tool; input: unknown; trace: GateTrace; startedAt: number };

/** Gates 1 and 2: find the tool, parse the input. */
export function prepareCall(call: ToolCall, env: RunnerEnv): Prepared {
  const startedAt = monotonicMs();
  const tracer = new Tracer(call.id, env.emit);
  const tool = findTool(env.tools, call.name);
  if (!tool) {
    tracer.mark('find', 'refused', `unknown tool ${call.name}`);
    const names = env.tools.map((t) => t.name).join(', ');
    return { kind: 'done', outcome: done(refusal('find', `No such tool: ${call.name}. The tools that exist are: ${names}.`), tracer, startedAt) };
  }
  tracer.mark('find', 'passed');
  const parsed = parseInput(tool, call.inputError ? undefined : call.input, call.inputError);
  if (!parsed.ok) {
    tracer.mark('parse', 'refused', parsed.message);
    return { kind: 'done', outcome: done(refusal('parse', `Invalid input for ${tool.name}:\n${parsed.message}${loadHint(tool, env)}`), tracer, startedAt) };
  }
  tracer.mark('parse', 'passed');
  return { kind: 'ready', call, tool, input: parsed.input, trace: tracer.trace, startedAt };
}

function toolContext(env: RunnerEnv, id: string, signal: AbortSignal): ToolContext {
  return {
    ...env.base,
    cwd: env.state.cwd,
    readState: env.state.readState,
    todos: env.state.todos,
    signal,
    toolUseId: id,
    permissionMode: env.permission.mode,
    rules: env.permission.rules,
    tools: env.tools,
  };
}

/** For a deferred tool called before it was loaded: its parameters were guessed; load it first. */
function loadHint(tool: Tool, env: RunnerEnv): string {
  if (!env.notLoaded?.has(tool.name)) return '';
  return `\n\n${tool.name} was called before it was loaded, so its parameters were guessed. Load it first: call ToolSearch with query "select:${tool.name}", then retry this call.`;
}

/** Gates 3–7 and PostToolUse for a prepared call. */
export async function executeCall(prep: Extract<Prepared, { kind: 'ready' }>, env: RunnerEnv, signal: AbortSignal): Promise<CallOutcome> {
  const tracer = new Tracer(prep.call.id, env.emit, prep.trace);
  const { tool, call } = prep;
  let input = prep.input;
  const finish = (r: ModelResult, extra: Partial<CallOutcome> = {}) => done(r, tracer, prep.startedAt, extra);
  if (signal.aborted) return finish(abortedResult(tracer, 'validate'));
  const ctx = toolContext(env, call.id, signal);
  const g: Gated = { tool, call, env, ctx, tracer, startedAt: prep.startedAt };

  // 3) Validate: the tool's own rules; not for a call a deny rule covers by path (see validate).
  const invalid = await validate(tool, input, ctx);
  if (invalid) {
    tracer.mark('validate', 'refused', invalid);
    return finish(refusal('validate', `${invalid}${loadHint(tool, env)}`));
  }
  tracer.mark('validate', ...validatedNote(tool, input, ctx));

  // 4) PreToolUse hooks: may allow, deny, ask, stop or rewrite the input.
  const hook = await runPreHooks(g, input);
  if (hook.kind === 'done') return finish(hook.result, hook.extra);
  input = hook.input;

  // 5) Permission: deny → ask → mode → allow → tool default → ask the person.
  const perm = await checkPermission(g, input, hook.decision);
  if (perm.kind === 'done') return finish(perm.result, perm.extra);
  if (perm.input !== undefined) input = perm.input;

  // 6) Execute, 7) map, then PostToolUse.
  return finishExecution(g, input);
}

function abortedResult(tracer: Tracer, gate: GateName): ModelResult {
  tracer.mark(gate, 'aborted', 'interrupted by the user');
  return { content: 'Interrupted by the user: the call did not run.', isError: true };
}
