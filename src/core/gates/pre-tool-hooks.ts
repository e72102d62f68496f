/**
 * Gate 4, the PreToolUse hooks: they may allow, deny, ask, stop the run, defer the call or rewrite
 * its input (which must parse and validate again). Their allow or ask goes on to the permission gate.
 */
import type { CallOutcome } from '../../base/tool.js';
import type { ModelResult } from '../../base/events.js';
import { type Gated, type HookDecision, parseInput, refusal, validate } from './gated.js';
import { readOnly } from './execute.js';

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

export type HookStep = { kind: 'continue'; input: unknown; decision?: HookDecision } | { kind: 'done'; result: ModelResult; extra?: Partial<CallOutcome> };

export async function runPreHooks(g: Gated, input: unknown): Promise<HookStep> {
  const { tool, call, env, ctx, tracer } = g;
  const signal = ctx.signal;
  if (env.beforeHooks && !readOnly(tool, input)) await env.beforeHooks().catch(() => undefined);
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
