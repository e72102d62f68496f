/**
 * The gates for ONE call, in one fixed order (PRODUCT.md §2):
 *   1 find → 2 parse → 3 validate → 4 PreToolUse hooks → 5 permission → 6 execute → 7 map → PostToolUse
 * Each gate is a small named function returning either "continue" or a finished result. Model
 * mistakes never throw: they become an `is_error` result naming the gate. Every gate leaves a record
 * in the trace.
 */
import type { Hooks } from '../hooks/types.js';
import { decidePermission, pathDenyRule } from '../permissions/decide.js';
import { permissionDenial, rejectedByPerson, unpunctuated } from '../permissions/denial-text.js';
import type { PermissionMode } from '../base/permission-modes.js';
import type { AskUser, PermissionDecision, PermissionEffects, PermissionRules } from '../base/permission-types.js';
import { drainCall, type CallOutcome, type ContextChange, type SessionState, type Tool, type ToolCall, type ToolContext } from '../base/tool.js';
import type { AgentEvent, DisplayData, GateName, GateTrace, ModelResult } from '../base/events.js';
import { findTool } from '../tools/registry.js';
import { monotonicMs } from '../base/clock.js';
import { errorMessage, ToolError } from '../base/errors.js';
import { Tracer } from './gate-tracer.js';
import { formatInputIssues } from './input-errors.js';
import { afterCall, beforeChange, changedByCommand, changedFiles, withDiagnostics } from './lsp-calls.js';

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
  /** Told before a call whose tool is not read-only runs, once every gate let it (a snapshot of the project is taken once per prompt). */
  beforeChange?: (toolName: string, input: unknown) => Promise<void>;
  /** Deferred tools whose definitions the model has not been given yet (it must load them with ToolSearch). */
  notLoaded?: ReadonlySet<string>;
}

/** A call after gates 1–2: the tool and its parsed input, or a finished refusal. */
export type Prepared =
  | { kind: 'done'; outcome: CallOutcome }
  | { kind: 'ready'; call: ToolCall; tool: Tool; input: unknown; trace: GateTrace; startedAt: number };

function refusal(gate: GateName, message: string): ModelResult {
  return { content: `<tool_use_error>[${gate}] ${message}</tool_use_error>`, isError: true };
}

function done(result: ModelResult, tracer: Tracer, startedAt: number, extra: Partial<CallOutcome> = {}): CallOutcome {
  return { result, trace: tracer.trace, durationMs: Math.round(monotonicMs() - startedAt), ...extra };
}

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

function parseInput(tool: Tool, input: unknown, jsonError?: string): { ok: true; input: unknown } | { ok: false; message: string } {
  if (jsonError) return { ok: false, message: jsonError };
  const result = tool.inputSchema.safeParse(input ?? {});
  if (result.success) return { ok: true, input: result.data };
  return { ok: false, message: formatInputIssues(result.error, input).join('\n') };
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

/**
 * The tool's own validation, unless a deny rule covers one of the call's paths: what validation says
 * (no such file, a similar name, what the file holds) would tell about a denied path, so such a call
 * goes on to the permission gate, which refuses it whether or not the path exists.
 */
async function validate(tool: Tool, input: unknown, ctx: ToolContext): Promise<string | undefined> {
  if (!tool.validateInput || (ctx.rules && pathDenyRule(tool, input, ctx, ctx.rules))) return undefined;
  try {
    const v = await tool.validateInput(input, ctx);
    return v.ok ? undefined : v.message;
  } catch (err) {
    return errorMessage(err);
  }
}

function validatedNote(tool: Tool, input: unknown, ctx: ToolContext): ['passed' | 'skipped', string?] {
  if (!tool.validateInput || !ctx.rules || !pathDenyRule(tool, input, ctx, ctx.rules)) return ['passed'];
  return ['skipped', 'a deny rule covers a path of this call; the permission gate decides'];
}

/** One call on its way through gates 3–7: what every gate function needs. */
interface Gated {
  /** The mode the person chose to go on in, when they approved a plan. */
  nextMode?: 'default' | 'acceptEdits';
  tool: Tool;
  call: ToolCall;
  env: RunnerEnv;
  ctx: ToolContext;
  tracer: Tracer;
  startedAt: number;
}

type HookDecision = { behavior: 'allow' | 'ask' | 'deny'; by: string; reason?: string };

/** A hook's `defer`: parks the call when the loop allows it (print mode, the turn's only call); otherwise ignored with a warning. */
async function deferred(g: Gated, who: string, reason: string | undefined): Promise<boolean> {
  if (g.env.canDefer && (await g.env.canDefer())) {
    g.tracer.mark('hooks', 'deferred', `${who}: defer${reason ? ` (${reason})` : ''}`);
    return true;
  }
  const why = g.env.canDefer ? 'it works only when the call is the only one in its turn' : 'it works only in print mode (-p)';
  g.env.emit({ type: 'warning', message: `${who} returned permissionDecision "defer" for ${g.tool.name}; ignored: ${why}` });
  return false;
}

type HookStep = { kind: 'continue'; input: unknown; decision?: HookDecision } | { kind: 'done'; result: ModelResult; extra?: Partial<CallOutcome> };

async function runPreHooks(g: Gated, input: unknown): Promise<HookStep> {
  const { tool, call, env, ctx, tracer } = g;
  const signal = ctx.signal;
  const out = await env.hooks.preToolUse({ toolName: tool.name, toolInput: input, toolUseId: call.id }, signal);
  const who = out.hookName ? `hook ${out.hookName}` : 'hook';
  if (out.kind === 'stop') {
    tracer.mark('hooks', 'refused', `${who} stopped the run: ${out.reason}`);
    return { kind: 'done', result: refusal('hooks', `A PreToolUse hook stopped the run: ${out.reason}`), extra: { stop: out.reason } };
  }
  if (out.decision === 'defer' && (await deferred(g, who, out.reason))) {
    return {
      kind: 'done',
      result: refusal('hooks', 'Deferred by a PreToolUse hook: the call waits for the session to be resumed.'),
      extra: { deferred: true },
    };
  }
  if (out.decision === 'deny') {
    tracer.mark('hooks', 'denied', `${who}: ${out.reason ?? 'blocked'}`);
    // Listed with the run's permission denials, as Claude Code lists a hook's.
    env.emit({ type: 'permission_denied', toolUseId: call.id, name: tool.name, input, reason: out.reason ?? 'blocked by a PreToolUse hook' });
    return {
      kind: 'done',
      result: refusal('hooks', `Blocked by a PreToolUse hook: ${out.reason ?? 'no reason given'}`),
      extra: { denied: out.reason ?? 'hook' },
    };
  }
  let next = input;
  if (out.updatedInput !== undefined) {
    const parsed = parseInput(tool, out.updatedInput);
    if (!parsed.ok) {
      tracer.mark('hooks', 'refused', `${who} rewrote the input into something invalid: ${parsed.message}`);
      return { kind: 'done', result: refusal('hooks', `A PreToolUse hook rewrote the input into an invalid one:\n${parsed.message}`) };
    }
    const invalid = await validate(tool, parsed.input, ctx);
    if (invalid) {
      tracer.mark('hooks', 'refused', `${who} rewrote the input; validation failed: ${invalid}`);
      return { kind: 'done', result: refusal('validate', invalid) };
    }
    next = parsed.input;
    tracer.mark('hooks', 'rewritten', `${who} rewrote the input`);
  } else {
    tracer.mark('hooks', 'passed', out.decision ? `${who}: ${out.decision}` : undefined);
  }
  const decision = out.decision && out.decision !== 'defer' ? { behavior: out.decision, by: who, reason: out.reason } : undefined;
  return { kind: 'continue', input: next, decision };
}

/** The session's rules, with the allow rules granted for the current prompt's run (after the others: deny and ask still come first). */
function rulesNow(env: RunnerEnv): PermissionRules {
  const extra = env.state.turnAllow;
  return extra?.length ? { ...env.permission.rules, allow: [...env.permission.rules.allow, ...extra] } : env.permission.rules;
}

type PermStep =
  | { kind: 'continue' /** changed by whoever approved it */; input?: unknown }
  | { kind: 'done'; result: ModelResult; extra?: Partial<CallOutcome> };

async function checkPermission(g: Gated, input: unknown, hookDecision: HookDecision | undefined): Promise<PermStep> {
  const { tool, env, ctx, tracer } = g;
  let decision: PermissionDecision = await decidePermission({ tool, input, ctx, rules: rulesNow(env), mode: env.permission.mode });
  // A hook's allow skips the prompt but never beats deny or ask rules; its ask forces a prompt.
  // Only the tool's own default ask (or its dontAsk denial) may be approved by a hook: never an ask
  // rule, a protected path or a link out of the workspace.
  const hookMayApprove = (decision.behavior === 'ask' && decision.by === 'tool default') || (decision.behavior === 'deny' && decision.by === 'mode dontAsk');
  if (hookDecision?.behavior === 'allow' && hookMayApprove) {
    decision = { behavior: 'allow', by: hookDecision.by };
  } else if (hookDecision?.behavior === 'ask' && decision.behavior === 'allow') {
    decision = { behavior: 'ask', by: hookDecision.by, reason: hookDecision.reason ?? 'a PreToolUse hook asks first', suggestions: [] };
  }
  if (decision.behavior === 'allow') {
    tracer.mark('permission', 'allowed', decision.by);
    return { kind: 'continue' };
  }
  if (decision.behavior === 'deny') return denied(g, input, decision.by, decision.reason, decision.unasked);
  return askPerson(g, input, decision, hookDecision?.behavior === 'ask');
}

/**
 * A denial: the trace, the event, and the refusal the model reads. `unasked`: nobody could be asked
 * (print mode, dontAsk mode), with the rules that would allow the call when one can; `noPerson`:
 * there is no person to turn to at all (print mode, a hook's check).
 */
function denied(g: Gated, input: unknown, by: string, reason: string, unasked?: { allowWith?: string[] }, noPerson = false): PermStep {
  const { tool, call, env, tracer } = g;
  tracer.mark('permission', 'denied', by);
  const extra = unasked ? { unasked: true, ...(unasked.allowWith ? { allowWith: unasked.allowWith } : {}) } : {};
  env.emit({ type: 'permission_denied', toolUseId: call.id, name: tool.name, input, reason, ...extra });
  return {
    kind: 'done',
    result: refusal('permission', permissionDenial(tool.name, reason, noPerson)),
    extra: { denied: reason },
  };
}

async function askPerson(g: Gated, input: unknown, decision: Extract<PermissionDecision, { behavior: 'ask' }>, hookAsks: boolean): Promise<PermStep> {
  const { tool, call, env, tracer } = g;
  const signal = g.ctx.signal;
  const hookAnswer = await env.hooks.permissionRequest?.(
    { toolName: tool.name, toolInput: input, toolUseId: call.id, suggestions: decision.suggestions },
    signal,
  );
  if (hookAnswer) {
    if (hookAnswer.behavior === 'allow') {
      if (hookAnswer.updatedPermissions) await applyHookUpdates(env, hookAnswer.updatedPermissions);
      if (hookAnswer.updatedInput !== undefined) return approvedRewrite(g, hookAnswer.updatedInput, 'PermissionRequest hook');
      tracer.mark('permission', 'allowed', `PermissionRequest hook (asked by ${decision.by})`);
      return { kind: 'continue' };
    }
    // The turn ends as an interrupt ends it; the call still gets this denial as its result.
    if (hookAnswer.interrupt) env.permissionEffects?.interrupt();
    return denied(g, input, 'PermissionRequest hook', hookAnswer.message ?? 'a PermissionRequest hook said no');
  }
  const preview = tool.summary(input);
  // Only the tool's own ask gives way to an allow rule: not an ask rule, a protected path, or a hook that asks.
  const ruleCanAllow = !hookAsks && (decision.by === 'tool default' || decision.by === 'symbolic link out of the workspace');
  const heldOn = tool.askPath?.(input, g.ctx) ?? tool.permissionPaths?.(input, g.ctx)?.paths[0];
  const shown = tool.askPreview?.(input, g.ctx);
  const answer = await env.askUser(
    {
      toolUseId: call.id,
      toolName: tool.name,
      input,
      summary: preview,
      reason: `${unpunctuated(decision.reason)} (${decision.by})`,
      suggestions: decision.suggestions,
      ruleCanAllow,
      askedBy: decision.by,
      ...(heldOn ? { blockedPath: heldOn } : {}),
      ...(shown ? { preview: shown } : {}),
      ...(decision.askRule ? { askRule: decision.askRule } : {}),
      ...(tool.mcpServer ? { mcpServer: tool.mcpServer } : {}),
    },
    signal,
  );
  if (answer.behavior === 'allow') {
    if (answer.mode) g.nextMode = answer.mode;
    if (answer.updatedInput !== undefined) return approvedRewrite(g, answer.updatedInput, answer.answeredBy ?? 'the answer');
    if (answer.remember?.length) {
      const { parseRule } = await import('../base/rule-parse.js');
      for (const r of answer.remember) env.permission.rules.allow.push(parseRule(r, 'session'));
    }
    const who = answer.answeredBy ? `${answer.answeredBy}: yes` : 'answer: yes';
    tracer.mark('permission', 'allowed', `asked (${decision.by}) → ${who}${answer.remember?.length ? `, always ${answer.remember.join(', ')}` : ''}`);
    return { kind: 'continue' };
  }
  // Nobody was asked (print mode, a hook's check): the answer's own words, and the trace says who gave them.
  if (answer.answeredBy) {
    const unasked = answer.nobodyAsked ? (ruleCanAllow ? { allowWith: decision.suggestions } : {}) : undefined;
    return denied(g, input, `${decision.by} → ${answer.answeredBy}`, answer.message ?? `${answer.answeredBy} said no`, unasked, answer.nobodyAsked);
  }
  if (answer.interrupt) return rejected(g, input, decision.by);
  const why = answer.message ? `the user said no and wrote: ${answer.message}` : `${unpunctuated(decision.reason)}; the user was asked and said no`;
  return denied(g, input, `asked (${decision.by}) → answer: no`, why);
}

/** A PermissionRequest hook's updatedPermissions, applied before its call runs; what cannot be is said. */
async function applyHookUpdates(env: RunnerEnv, updates: unknown[]): Promise<void> {
  const problems = env.permissionEffects ? await env.permissionEffects.applyUpdates(updates) : ['this mode of wicket does not apply them; ignored'];
  for (const p of problems) env.emit({ type: 'warning', message: `PermissionRequest hook updatedPermissions: ${p}` });
}

/** The person said no and stopped the turn: the model is told to wait for them. */
function rejected(g: Gated, input: unknown, by: string): PermStep {
  const { tool, call, env, tracer } = g;
  const reason = 'the user said no and stopped the turn';
  tracer.mark('permission', 'denied', `asked (${by}) → answer: no, stop`);
  env.emit({ type: 'permission_denied', toolUseId: call.id, name: tool.name, input, reason });
  return { kind: 'done', result: refusal('permission', rejectedByPerson(tool.name)), extra: { denied: reason } };
}

/**
 * An approval that changed the input: the new input must parse and validate, and no deny or ask
 * rule may match it (the approval was for the call as it was); then it runs as given.
 */
async function approvedRewrite(g: Gated, updated: unknown, who: string): Promise<PermStep> {
  const { tool, env, ctx, tracer } = g;
  const parsed = parseInput(tool, updated);
  const invalid = parsed.ok ? await validate(tool, parsed.input, ctx) : parsed.message;
  if (!parsed.ok || invalid) {
    tracer.mark('permission', 'denied', `${who} changed the input into an invalid one`);
    return { kind: 'done', result: refusal('permission', `${who} approved the call with a changed input that is not valid:\n${invalid}`) };
  }
  const again = await decidePermission({ tool, input: parsed.input, ctx, rules: rulesNow(env), mode: env.permission.mode });
  const answered = tool.answersInInput && again.behavior === 'ask' && again.by === 'always asks';
  if (again.behavior === 'deny' || (again.behavior === 'ask' && again.by !== 'tool default' && !answered)) {
    return denied(g, parsed.input, `${who} changed the input, and then ${again.by}`, again.reason);
  }
  tracer.mark('permission', 'allowed', `${who} (with a changed input)`);
  return { kind: 'continue', input: parsed.input };
}

/** The tool's own word; false when it cannot say (the parser of a command not ready, an error). */
function readOnly(tool: Tool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input) === true;
  } catch {
    return false;
  }
}

function abortedResult(tracer: Tracer, gate: GateName): ModelResult {
  tracer.mark(gate, 'aborted', 'interrupted by the user');
  return { content: 'Interrupted by the user: the call did not run.', isError: true };
}

async function finishExecution(g: Gated, input: unknown): Promise<CallOutcome> {
  const { tool, call, env, ctx, tracer, startedAt } = g;
  // A call that may change files, allowed to run: the project is snapshotted first, once per prompt (core/snapshots/).
  if (env.beforeChange && !readOnly(tool, input)) await env.beforeChange(tool.name, input).catch(() => undefined);
  const t0 = monotonicMs();
  const changing = changedFiles(tool, input, ctx);
  await beforeChange(ctx, changing);
  let output: unknown;
  try {
    output = await drainCall(tool.call(input, ctx), (p) => env.emit({ type: 'tool_progress', toolUseId: call.id, message: p.message, data: p.data }));
  } catch (err) {
    const interrupted = ctx.signal.aborted;
    const message = interrupted ? cancelMessage(ctx.signal) : errorMessage(err);
    tracer.mark('execute', interrupted ? 'aborted' : 'failed', message);
    const post = await env.hooks.postToolUseFailure(
      { toolName: tool.name, toolInput: input, toolUseId: call.id, error: message, isInterrupt: interrupted, durationMs: Math.round(monotonicMs() - t0) },
      ctx.signal.aborted ? new AbortController().signal : ctx.signal,
    );
    const text = interrupted ? message : err instanceof ToolError ? message : `${tool.name} failed: ${message}`;
    return done({ content: withContext(text, post.additionalContext), isError: true }, tracer, startedAt, {
      failed: !interrupted,
      ...(post.stop ? { stop: post.stop.reason } : {}),
    });
  }
  tracer.mark('execute', 'passed');
  const mode = tool.modeAfter?.(output, env.permission.mode, g.nextMode);
  if (mode) env.permission.mode = mode;
  const outcome = await mapOutput(g, input, output, t0, changing);
  afterCall(tool, input, ctx, env.emit);
  return outcome;
}

function cancelMessage(signal: AbortSignal): string {
  const reason = signal.reason;
  if (reason instanceof ToolError) return reason.message;
  return 'Interrupted by the user.';
}

async function mapOutput(g: Gated, input: unknown, output: unknown, t0: number, changed: readonly string[]): Promise<CallOutcome> {
  const { tool, call, env, ctx, tracer, startedAt } = g;
  let result: ModelResult;
  let display: DisplayData | undefined;
  let change: ContextChange | undefined;
  try {
    result = tool.toModelResult(output, input);
    display = tool.display?.(output, input);
    change = tool.contextChange?.(output, input);
  } catch (err) {
    tracer.mark('map', 'failed', errorMessage(err));
    return done(refusal('map', `${tool.name} produced a result that could not be mapped: ${errorMessage(err)}`), tracer, startedAt, { failed: true });
  }
  tracer.mark('map', 'passed');
  const byCommand = await changedByCommand(tool, input, ctx);
  ({ result, display } = await withDiagnostics(ctx, [...changed, ...byCommand], result, display));
  const post = await env.hooks.postToolUse(
    { toolName: tool.name, toolInput: input, toolUseId: call.id, toolResponse: hookView(tool, output, input), durationMs: Math.round(monotonicMs() - t0) },
    ctx.signal,
  );
  if (post.updatedOutput) tracer.mark('post_hooks', 'rewritten', `output replaced by ${post.updatedOutput.hookName}`);
  else if (post.additionalContext || post.stop) tracer.mark('post_hooks', 'passed', post.stop ? `stop: ${post.stop.reason}` : 'added context');
  const shown = post.updatedOutput?.content ?? result.content;
  const content = post.additionalContext ? appendText(shown, post.additionalContext) : shown;
  return done({ ...result, content }, tracer, startedAt, {
    ...(display ? { display } : {}),
    ...(change ? { contextChange: change } : {}),
    ...(post.stop ? { stop: post.stop.reason } : {}),
    ...(result.isError && tool.name === 'Bash' ? { failed: true } : {}),
  });
}

/** What hooks see of the output (`tool_response`): the tool's Claude Code shape, when it has one. */
function hookView(tool: Tool, output: unknown, input: unknown): unknown {
  try {
    return tool.toolResponse ? tool.toolResponse(output, input) : output;
  } catch {
    return output;
  }
}

function withContext(text: string, extra?: string): string {
  return extra ? `${text}\n\n${extra}` : text;
}

function appendText(content: ModelResult['content'], extra: string): ModelResult['content'] {
  if (typeof content === 'string') return withContext(content, extra);
  return [...content, { type: 'text', text: extra }];
}
