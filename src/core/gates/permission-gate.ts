/**
 * Gate 5, the permission: deny → ask → mode → allow → tool default, then a PermissionRequest hook
 * or the person. A PreToolUse hook's allow skips the question only where the tool's own default
 * asks; an approval that changes the input is judged again.
 */
import { decidePermission } from '../../permissions/decide.js';
import { permissionDenial, rejectedByPerson, unpunctuated } from '../../permissions/denial-text.js';
import type { PermissionDecision, PermissionRules } from '../../base/permission-types.js';
import type { CallOutcome } from '../../base/tool.js';
import type { ModelResult } from '../../base/events.js';
import { type Gated, type HookDecision, parseInput, refusal, type RunnerEnv, validate } from './gated.js';

/** The session's rules, with the allow rules granted for the current prompt's run (after the others: deny and ask still come first). */
function rulesNow(env: RunnerEnv): PermissionRules {
  const extra = env.state.turnAllow;
  return extra?.length ? { ...env.permission.rules, allow: [...env.permission.rules.allow, ...extra] } : env.permission.rules;
}

export type PermStep =
  | { kind: 'continue' /** changed by whoever approved it */; input?: unknown }
  | { kind: 'done'; result: ModelResult; extra?: Partial<CallOutcome> };

export async function checkPermission(g: Gated, input: unknown, hookDecision: HookDecision | undefined): Promise<PermStep> {
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
  const byHook = await askPermissionHook(g, input, decision);
  if (byHook) return byHook;
  const { tool, call, env, tracer } = g;
  const signal = g.ctx.signal;
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
      const { parseRule } = await import('../../base/rule-parse.js');
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

/** A PermissionRequest hook answers before the person is asked; undefined when none answered. */
async function askPermissionHook(g: Gated, input: unknown, decision: Extract<PermissionDecision, { behavior: 'ask' }>): Promise<PermStep | undefined> {
  const { tool, call, env, tracer } = g;
  const hookAnswer = await env.hooks.permissionRequest?.(
    { toolName: tool.name, toolInput: input, toolUseId: call.id, suggestions: decision.suggestions },
    g.ctx.signal,
  );
  if (!hookAnswer) return undefined;
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
