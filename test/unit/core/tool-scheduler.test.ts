import { describe, expect, it } from 'vitest';
import { ToolScheduler } from '../../../src/core/tool-scheduler.js';
import { fakeEnv, fakeTool, gate, type Gate } from './fake-tools.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('ToolScheduler', () => {
  it('runs consecutive safe calls together and returns results in call order', async () => {
    const gates = new Map<string, Gate>([
      ['a', gate()],
      ['b', gate()],
      ['c', gate()],
    ]);
    const log: string[] = [];
    const { env, events } = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true, gates, log })] });
    const s = new ToolScheduler(env, new AbortController().signal);
    for (const id of ['a', 'b', 'c']) s.add({ id, name: 'R', input: { id } });
    await tick();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    gates.get('c')!.open();
    gates.get('b')!.open();
    await tick();
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(0); // a not done yet: nothing handed back
    gates.get('a')!.open();
    const out = await s.finish();
    expect(out.map((o) => o.outcome.result.content)).toEqual(['did a', 'did b', 'did c']);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => (e as any).toolUseId)).toEqual(['a', 'b', 'c']);
  });

  it('runs an unsafe call alone, after everything before it, and holds later calls', async () => {
    const gates = new Map<string, Gate>([
      ['r1', gate()],
      ['w', gate()],
    ]);
    const log: string[] = [];
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true, gates, log }), fakeTool({ name: 'W', safe: false, gates, log })] });
    const s = new ToolScheduler(env, new AbortController().signal);
    s.add({ id: 'r1', name: 'R', input: { id: 'r1' } });
    s.add({ id: 'w', name: 'W', input: { id: 'w' } });
    s.add({ id: 'r2', name: 'R', input: { id: 'r2' } });
    await tick();
    expect(log).toEqual(['start r1']);
    gates.get('r1')!.open();
    await tick();
    expect(log).toEqual(['start r1', 'end r1', 'start w']);
    gates.get('w')!.open();
    await s.finish();
    expect(log).toEqual(['start r1', 'end r1', 'start w', 'end w', 'start r2', 'end r2']);
  });

  it('caps the number of calls running at once', async () => {
    const gates = new Map<string, Gate>();
    const ids = ['1', '2', '3', '4'];
    for (const id of ids) gates.set(id, gate());
    const log: string[] = [];
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true, gates, log })] });
    const s = new ToolScheduler(env, new AbortController().signal, 2);
    for (const id of ids) s.add({ id, name: 'R', input: { id } });
    await tick();
    expect(log.filter((l) => l.startsWith('start'))).toHaveLength(2);
    gates.get('1')!.open();
    await tick();
    expect(log.filter((l) => l.startsWith('start'))).toHaveLength(3);
    for (const g of gates.values()) g.open();
    await s.finish();
  });

  it('starts a safe call at once, while later calls are still streaming in', async () => {
    const gates = new Map<string, Gate>([['a', gate()]]);
    const log: string[] = [];
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true, gates, log })] });
    const s = new ToolScheduler(env, new AbortController().signal);
    s.add({ id: 'a', name: 'R', input: { id: 'a' } });
    await tick();
    expect(log).toEqual(['start a']); // started before finish() was called
    gates.get('a')!.open();
    await s.finish();
  });

  it('applies context changes in call order, whatever order calls finish in', async () => {
    const gates = new Map<string, Gate>([
      ['a', gate()],
      ['b', gate()],
    ]);
    const applied: string[] = [];
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true, gates, onContext: (id) => applied.push(id) })] });
    const s = new ToolScheduler(env, new AbortController().signal);
    s.add({ id: 'a', name: 'R', input: { id: 'a' } });
    s.add({ id: 'b', name: 'R', input: { id: 'b' } });
    gates.get('b')!.open();
    await tick();
    expect(applied).toEqual([]);
    gates.get('a')!.open();
    await s.finish();
    expect(applied).toEqual(['a', 'b']);
  });

  it('cancels running siblings when a Bash call fails; the others get an explanatory result', async () => {
    const gates = new Map<string, Gate>([['slow', gate()]]);
    const bash = fakeTool({ name: 'Bash', safe: true, fail: (id) => id === 'bad' });
    const r = fakeTool({ name: 'R', safe: true, gates });
    const { env } = fakeEnv({ tools: [bash, r] });
    const s = new ToolScheduler(env, new AbortController().signal);
    s.add({ id: 'slow', name: 'R', input: { id: 'slow' } });
    s.add({ id: 'bad', name: 'Bash', input: { id: 'bad' } });
    const out = await s.finish();
    expect(out[0]!.outcome.result.content).toContain('Cancelled because a parallel Bash call (Bash bad) failed');
    expect(out[0]!.outcome.result.isError).toBe(true);
    expect(out[1]!.outcome.result.isError).toBe(true);
  });

  it('answers every call on abort: running ones through their signal, waiting ones without running', async () => {
    const gates = new Map<string, Gate>([['a', gate()]]);
    const log: string[] = [];
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'W', safe: false, gates, log })] });
    const ac = new AbortController();
    const s = new ToolScheduler(env, ac.signal);
    s.add({ id: 'a', name: 'W', input: { id: 'a' } });
    s.add({ id: 'b', name: 'W', input: { id: 'b' } });
    await tick();
    ac.abort('SIGINT');
    const out = await s.finish();
    expect(out).toHaveLength(2);
    expect(out.every((o) => o.outcome.result.isError)).toBe(true);
    expect(out[1]!.outcome.result.content).toContain('did not run');
    expect(log).toEqual(['start a']);
  });

  it('gives an unknown tool and a bad input their results without blocking the others', async () => {
    const { env } = fakeEnv({ tools: [fakeTool({ name: 'R', safe: true })] });
    const s = new ToolScheduler(env, new AbortController().signal);
    s.add({ id: '1', name: 'Nope', input: {} });
    s.add({ id: '2', name: 'R', input: { id: 5 } });
    s.add({ id: '3', name: 'R', input: { id: 'ok' } });
    const out = await s.finish();
    expect(out[0]!.outcome.result.content).toContain('No such tool: Nope. The tools that exist are: R.');
    expect(out[1]!.outcome.result.content).toContain('id: expected string, got number');
    expect(out[2]!.outcome.result.content).toBe('did ok');
  });
});
