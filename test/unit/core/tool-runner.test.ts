import { describe, expect, it } from 'vitest';
import { executeCall, prepareCall, type RunnerEnv } from '../../../src/core/tool-runner.js';
import type { Hooks, PreToolUseOutcome } from '../../../src/hooks/types.js';
import { parseRule } from '../../../src/base/rule-parse.js';
import { emptyRules } from '../../../src/base/permission-types.js';
import { exitPlanModeTool } from '../../../src/tools/exit-plan-mode/index.js';
import { fakeEnv, fakeTool } from './fake-tools.js';

async function run(env: RunnerEnv, name: string, input: unknown) {
  const p = prepareCall({ id: 't1', name, input }, env);
  if (p.kind === 'done') return p.outcome;
  return executeCall(p, env, new AbortController().signal);
}

function hooksWith(pre: PreToolUseOutcome, log: string[] = []): Hooks {
  return {
    preToolUse: async (c) => {
      log.push(`pre ${JSON.stringify(c.toolInput)}`);
      return pre;
    },
    postToolUse: async () => {
      log.push('post');
      return {};
    },
    postToolUseFailure: async () => ({}),
  };
}

const gates = (o: { trace: Array<{ gate: string; verdict: string }> }) => o.trace.map((r) => `${r.gate}:${r.verdict}`);

describe('tool runner gates', () => {
  it('passes every gate in order for an allowed call and records the trace', async () => {
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true })] });
    const out = await run(env, 'R', { id: 'x' });
    expect(out.result).toEqual({ content: 'did x', isError: undefined });
    expect(gates(out)).toEqual(['find:passed', 'parse:passed', 'validate:passed', 'hooks:passed', 'permission:allowed', 'execute:passed', 'map:passed']);
    expect(out.trace.find((r) => r.gate === 'permission')!.detail).toBe('tool default');
  });

  it('find: an unknown name lists the tools that exist; nothing else runs', async () => {
    const log: string[] = [];
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R' }), fakeTool({ name: 'W' })], hooks: hooksWith({ kind: 'continue' }, log) });
    const out = await run(env, 'Nope', {});
    expect(out.result.isError).toBe(true);
    expect(out.result.content).toContain('The tools that exist are: R, W.');
    expect(gates(out)).toEqual(['find:refused']);
    expect(log).toEqual([]);
  });

  it('parse: lists every bad field, and no hook fires', async () => {
    const log: string[] = [];
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R' })], hooks: hooksWith({ kind: 'continue' }, log) });
    const out = await run(env, 'R', { bogus: 1 });
    expect(out.result.content).toContain('id is required');
    expect(out.result.content).toContain('unexpected field bogus');
    expect(gates(out)).toEqual(['find:passed', 'parse:refused']);
    expect(log).toEqual([]);
  });

  it('validate: the tool’s own refusal reaches the model; hooks do not fire', async () => {
    const log: string[] = [];
    const tool = fakeTool({ name: 'R', validate: () => 'read the file first' });
    const { env } = fakeEnv({ tools: [tool], hooks: hooksWith({ kind: 'continue' }, log) });
    const out = await run(env, 'R', { id: 'x' });
    expect(out.result.content).toContain('read the file first');
    expect(gates(out).at(-1)).toBe('validate:refused');
    expect(log).toEqual([]);
  });

  it('parse and validate: a deferred tool called before it was loaded is told to load it with ToolSearch', async () => {
    const tool = fakeTool({ name: 'mcp__s__t', validate: () => 'b is required' });
    const { env } = fakeEnv({ tools: [tool] });
    const hint =
      'mcp__s__t was called before it was loaded, so its parameters were guessed. Load it first: call ToolSearch with query "select:mcp__s__t", then retry this call.';
    expect((await run({ ...env, notLoaded: new Set(['mcp__s__t']) }, 'mcp__s__t', { id: 'x' })).result.content).toContain(`b is required\n\n${hint}`);
    expect((await run({ ...env, notLoaded: new Set(['mcp__s__t']) }, 'mcp__s__t', { id: 1 })).result.content).toContain(hint);
    expect((await run(env, 'mcp__s__t', { id: 'x' })).result.content).not.toContain('ToolSearch');
  });

  it('hooks: a deny blocks before permission, and the reason goes to the model', async () => {
    const { env } = fakeEnv({
      tools: [fakeTool({ name: 'R' })],
      hooks: hooksWith({ kind: 'continue', decision: 'deny', reason: 'not on Fridays', hookName: 'guard.sh' }),
    });
    const out = await run(env, 'R', { id: 'x' });
    expect(out.result.content).toContain('not on Fridays');
    expect(gates(out).at(-1)).toBe('hooks:denied');
    expect(out.trace.at(-1)!.detail).toContain('guard.sh');
  });

  it('hooks: a deny is listed with the permission denials', async () => {
    const { env, events } = fakeEnv({
      tools: [fakeTool({ name: 'R' })],
      hooks: hooksWith({ kind: 'continue', decision: 'deny', reason: 'no', hookName: 'h' }),
    });
    await run(env, 'R', { id: 'x' });
    expect(events.filter((e) => e.type === 'permission_denied')).toEqual([
      { type: 'permission_denied', toolUseId: 't1', name: 'R', input: { id: 'x' }, reason: 'no' },
    ]);
  });

  it('permission: the request says who made it ask; an answer that names who gave it is in the trace', async () => {
    const ask = { behavior: 'ask' as const, reason: 'R writes', suggestions: ['R'] };
    let seen: unknown;
    const { env } = fakeEnv({
      tools: [fakeTool({ name: 'R', verdict: ask })],
      answer: (req) => ((seen = req), { behavior: 'allow', answeredBy: 'the SDK host (canUseTool)' }),
    });
    const out = await run(env, 'R', { id: 'x' });
    expect(seen).toMatchObject({ toolName: 'R', askedBy: 'tool default', suggestions: ['R'] });
    expect(out.trace.find((r) => r.gate === 'permission')).toMatchObject({
      verdict: 'allowed',
      detail: 'asked (tool default) → the SDK host (canUseTool): yes',
    });
  });

  it('hooks: a rewritten input is parsed and validated again, and permission judges the rewrite', async () => {
    const log: string[] = [];
    const tool = fakeTool({ name: 'R', validate: (i) => (i.id === 'bad' ? 'bad id' : undefined) });
    const rules = emptyRules();
    rules.deny.push(parseRule('R', 'projectSettings'));
    const ok = fakeEnv({ tools: [tool], hooks: hooksWith({ kind: 'continue', updatedInput: { id: 'new' }, hookName: 'rw' }, log) });
    const out = await run(ok.env, 'R', { id: 'old' });
    expect(out.result.content).toBe('did new');
    expect(gates(out)).toContain('hooks:rewritten');
    const invalid = fakeEnv({ tools: [tool], hooks: hooksWith({ kind: 'continue', updatedInput: { id: 'bad' } }) });
    expect((await run(invalid.env, 'R', { id: 'old' })).result.content).toContain('bad id');
    const garbage = fakeEnv({ tools: [tool], hooks: hooksWith({ kind: 'continue', updatedInput: { nope: 1 } }) });
    expect((await run(garbage.env, 'R', { id: 'old' })).result.content).toContain('invalid');
  });

  it('hooks: allow does not beat a deny rule', async () => {
    const rules = emptyRules();
    rules.deny.push(parseRule('R', 'projectSettings'));
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R' })], rules, hooks: hooksWith({ kind: 'continue', decision: 'allow' }) });
    const out = await run(env, 'R', { id: 'x' });
    expect(out.result.isError).toBe(true);
    expect(out.trace.at(-1)!.detail).toContain('deny rule R [projectSettings]');
  });

  it('hooks: stop ends the run after this call', async () => {
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R' })], hooks: hooksWith({ kind: 'stop', reason: 'enough' }) });
    const out = await run(env, 'R', { id: 'x' });
    expect(out.stop).toBe('enough');
  });

  it('permission: ask goes to the person; yes runs it, no gives the model the reason', async () => {
    const tool = fakeTool({ name: 'W', verdict: { behavior: 'ask', reason: 'edits need approval', suggestions: ['W'] } });
    const yes = fakeEnv({ tools: [tool], answer: () => ({ behavior: 'allow' }) });
    expect((await run(yes.env, 'W', { id: 'x' })).result.content).toBe('did x');
    expect(yes.asked).toEqual(['W']);
    const no = fakeEnv({ tools: [tool], answer: () => ({ behavior: 'deny', message: 'use the other file' }) });
    const out = await run(no.env, 'W', { id: 'x' });
    expect(out.result.content).toContain('use the other file');
    expect(out.denied).toBeDefined();
    expect(out.trace.at(-1)!.detail).toContain('answer: no');
  });

  it('permission: "don’t ask again" adds the rule for the rest of the session', async () => {
    const tool = fakeTool({ name: 'W', verdict: { behavior: 'ask', reason: 'r', suggestions: ['W'] } });
    const f = fakeEnv({ tools: [tool], answer: () => ({ behavior: 'allow', remember: ['W'] }) });
    await run(f.env, 'W', { id: 'x' });
    await run(f.env, 'W', { id: 'y' });
    expect(f.asked).toEqual(['W']);
  });

  it('permission: modes — bypass allows, plan refuses writes, dontAsk denies what would ask', async () => {
    const tool = fakeTool({ name: 'W', verdict: { behavior: 'ask', reason: 'r' } });
    const bypass = fakeEnv({ tools: [tool], mode: 'bypassPermissions' });
    expect((await run(bypass.env, 'W', { id: 'x' })).result.content).toBe('did x');
    const plan = fakeEnv({ tools: [tool], mode: 'plan' });
    expect((await run(plan.env, 'W', { id: 'x' })).result.content).toContain('plan mode');
    const dont = fakeEnv({ tools: [tool], mode: 'dontAsk' });
    const out = await run(dont.env, 'W', { id: 'x' });
    expect(out.result.content).toContain('dontAsk');
    expect(dont.asked).toEqual([]);
  });

  it('permission: ask rules hold in bypass mode; deny rules hold everywhere', async () => {
    const tool = fakeTool({ name: 'W' });
    const rules = emptyRules();
    rules.ask.push(parseRule('W', 'userSettings'));
    const f = fakeEnv({ tools: [tool], mode: 'bypassPermissions', rules });
    await run(f.env, 'W', { id: 'x' });
    expect(f.asked).toEqual(['W']);
    const d = emptyRules();
    d.deny.push(parseRule('W', 'cli'));
    d.allow.push(parseRule('W', 'cli'));
    const g = fakeEnv({ tools: [tool], mode: 'bypassPermissions', rules: d });
    expect((await run(g.env, 'W', { id: 'x' })).result.isError).toBe(true);
  });

  it('execute: a thrown error becomes an is_error result naming the tool', async () => {
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R', fail: () => true })] });
    const out = await run(env, 'R', { id: 'x' });
    expect(out.result).toEqual({ content: 'R failed: boom x', isError: true });
    expect(gates(out).at(-1)).toBe('execute:failed');
  });

  it('emits progress and gate events as it goes', async () => {
    const { env, events } = fakeEnv({ tools: [fakeTool({ name: 'R' })] });
    await run(env, 'R', { id: 'x' });
    expect(events.filter((e) => e.type === 'tool_progress')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'gate')).toHaveLength(7);
  });

  it('hooks: allow approves the tool default ask and a dontAsk denial, never an ask rule', async () => {
    const tool = fakeTool({ name: 'W', verdict: { behavior: 'ask', reason: 'r' } });
    const byDefault = fakeEnv({ tools: [tool], hooks: hooksWith({ kind: 'continue', decision: 'allow', hookName: 'ok.sh' }) });
    expect((await run(byDefault.env, 'W', { id: 'x' })).result.content).toBe('did x');
    expect(byDefault.asked).toEqual([]);
    const dont = fakeEnv({ tools: [tool], mode: 'dontAsk', hooks: hooksWith({ kind: 'continue', decision: 'allow' }) });
    expect((await run(dont.env, 'W', { id: 'x' })).result.content).toBe('did x');
    const rules = emptyRules();
    rules.ask.push(parseRule('W', 'projectSettings'));
    const asked = fakeEnv({ tools: [tool], rules, hooks: hooksWith({ kind: 'continue', decision: 'allow' }) });
    await run(asked.env, 'W', { id: 'x' });
    expect(asked.asked).toEqual(['W']);
  });

  it('an approved ExitPlanMode ends plan mode; a refused one keeps it', async () => {
    const yes = fakeEnv({ tools: [exitPlanModeTool], mode: 'plan', answer: () => ({ behavior: 'allow' }) });
    await run(yes.env, 'ExitPlanMode', { plan: '1. do it' });
    expect(yes.env.permission.mode).toBe('default');
    const no = fakeEnv({ tools: [exitPlanModeTool], mode: 'plan', answer: () => ({ behavior: 'deny', message: 'not yet' }) });
    const out = await run(no.env, 'ExitPlanMode', { plan: '1. do it' });
    expect(no.env.permission.mode).toBe('plan');
    expect(out.result.content).toContain('not yet');
  });

  it('hooks: defer parks the call when the loop allows it, and is ignored with a warning otherwise', async () => {
    const deferring = (canDefer?: () => Promise<boolean>) => {
      const made = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true })], hooks: hooksWith({ kind: 'continue', decision: 'defer', hookName: 'gate.sh' }) });
      if (canDefer) made.env.canDefer = canDefer;
      return made;
    };
    const parked = deferring(async () => true);
    const out = await run(parked.env, 'R', { id: 'x' });
    expect(out.deferred).toBe(true);
    expect(gates(out)).toEqual(['find:passed', 'parse:passed', 'validate:passed', 'hooks:deferred']);
    for (const [canDefer, why] of [
      [async () => false, 'only one in its turn'],
      [undefined, 'only in print mode'],
    ] as const) {
      const made = deferring(canDefer);
      const ran = await run(made.env, 'R', { id: 'x' });
      expect(ran.deferred).toBeUndefined();
      expect(ran.result.content).toBe('did x');
      expect(made.events).toContainEqual({ type: 'warning', message: expect.stringContaining(why) });
    }
  });
});
