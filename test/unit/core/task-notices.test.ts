/** Background-task notices: the queue, the wait, the text, and how the loop hands them to the model. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ClientEvent, FinalMessage, ModelClient, ModelRequest } from '../../../src/api/model-client.js';
import { emptyUsage } from '../../../src/base/usage.js';
import { runAgent } from '../../../src/core/agent-loop.js';
import type { AgentEvent, ApiMessage, ContentBlock, TaskNotice } from '../../../src/base/events.js';
import { noticeText, TaskNotices } from '../../../src/core/task-notices.js';
import { defineTool } from '../../../src/base/tool.js';
import { agentOptions, gate, type Gate } from './fake-tools.js';

type Turn = () => AsyncGenerator<ClientEvent, FinalMessage, void>;

const final = (content: ContentBlock[], stopReason: string): FinalMessage => ({
  id: 'm',
  model: 'x',
  content,
  stopReason,
  usage: emptyUsage(),
  truncated: false,
});

function textTurn(text: string): Turn {
  return async function* () {
    yield { type: 'text', text };
    return final([{ type: 'text', text }], 'end_turn');
  };
}

function callTurn(id: string, input: { id: string }): Turn {
  return async function* () {
    yield { type: 'tool_use', toolUse: { id, name: 'Start', input } };
    return final([{ type: 'tool_use', id, name: 'Start', input }], 'tool_use');
  };
}

/** Polls `cond` (every 5 ms, at most 5 s): a loaded machine takes longer than any fixed wait. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
}

function client(turns: Turn[], requests: ModelRequest[]): ModelClient {
  return {
    stream(req) {
      requests.push(structuredClone(req));
      const t = turns.shift();
      if (!t) throw new Error('script exhausted');
      return t();
    },
  };
}

function notice(taskId: string, extra: Partial<TaskNotice> = {}): TaskNotice {
  return {
    taskId,
    taskType: 'local_bash',
    status: 'completed',
    summary: `Background command "job ${taskId}" completed (exit code 0)`,
    outputFile: `/tmp/${taskId}.log`,
    ...extra,
  };
}

/**
 * `Start` begins a background task named by its input id; it ends when the test opens its gate
 * (at once when there is none), with the notice `ends` gives.
 */
function startTool(gates: Map<string, Gate>, ends: (id: string) => TaskNotice = (id) => notice(id)) {
  return defineTool<{ id: string }, { id: string }>({
    name: 'Start',
    description: () => 'starts background work',
    inputSchema: z.strictObject({ id: z.string() }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async checkPermissions() {
      return { behavior: 'allow' };
    },
    async *call(input, ctx) {
      ctx.backgroundTasks?.started({ taskId: input.id, toolUseId: ctx.toolUseId, taskType: 'local_bash', description: `job ${input.id}` });
      const g = gates.get(input.id);
      const end = () => ctx.backgroundTasks?.ended({ toolUseId: ctx.toolUseId, ...ends(input.id) });
      if (g) void g.promise.then(end);
      else end();
      return { id: input.id };
    },
    toModelResult: (out) => ({ content: `started ${out.id}` }),
    summary: (input) => `start ${input.id}`,
  });
}

async function collect(gen: AsyncGenerator<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

const lastBlocks = (req: ModelRequest) => req.messages.at(-1)!.content as ContentBlock[];

describe('TaskNotices', () => {
  it('queues notices in order, counts only those for the model, and tells subscribers', () => {
    const q = new TaskNotices();
    let told = 0;
    const off = q.subscribe(() => told++);
    q.started({ taskId: 'b1', taskType: 'local_bash', description: 'one' });
    q.started({ taskId: 'b2', taskType: 'local_bash', description: 'two' });
    expect(q.runningTasks().map((t) => t.taskId)).toEqual(['b1', 'b2']);
    q.ended(notice('b2', { silent: true }));
    expect(q.hasPending()).toBe(false);
    q.ended(notice('b1'));
    expect(q.hasPending()).toBe(true);
    expect(told).toBe(2);
    off();
    expect(q.take().map((n) => n.taskId)).toEqual(['b2', 'b1']);
    expect(q.take()).toEqual([]);
    expect(q.runningTasks()).toEqual([]);
    q.ended(notice('b3'));
    expect(told).toBe(2);
  });

  it('waits for the next notice; not at all when nothing runs; stops waiting on abort', async () => {
    const q = new TaskNotices();
    await q.waitForNotice(new AbortController().signal); // nothing running: at once
    q.started({ taskId: 'b1', taskType: 'local_bash', description: 'one' });
    let woke = false;
    const waiting = q.waitForNotice(new AbortController().signal).then(() => (woke = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(woke).toBe(false);
    q.ended(notice('b1'));
    await waiting;
    q.take();
    q.started({ taskId: 'b2', taskType: 'local_bash', description: 'two' });
    const ac = new AbortController();
    const aborted = q.waitForNotice(ac.signal);
    ac.abort();
    await aborted;
    expect(q.hasPending()).toBe(false);
  });

  it("keeps a running task's progress for the loop, wakes a wait that asks for it, and drops progress of a task that ended", async () => {
    const q = new TaskNotices();
    let told = 0;
    q.subscribe(() => told++);
    q.started({ taskId: 'a1', taskType: 'local_agent', description: 'agent' });
    const p = (n: number) => ({ taskId: 'a1', description: 'agent', usage: { totalTokens: n, toolUses: n, durationMs: 1 }, lastToolName: 'Read' });
    let woke = false;
    const waiting = q.waitForNotice(new AbortController().signal, true).then(() => (woke = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(woke).toBe(false);
    q.progress(p(1));
    await waiting;
    q.progress(p(2));
    expect(q.takeProgress().map((x) => x.usage.toolUses)).toEqual([1, 2]);
    expect(told).toBe(0); // progress never wakes the model
    q.ended(notice('a1'));
    q.progress(p(3));
    expect(q.takeProgress()).toEqual([]);
  });

  it('stops a task whose deadline passes while a run waits for it, and waits for its notice', async () => {
    const q = new TaskNotices();
    const stopped: string[] = [];
    q.started({
      taskId: 'b1',
      taskType: 'local_bash',
      description: 'hangs',
      deadline: Date.now() + 80,
      stop: () => {
        stopped.push('b1');
        setTimeout(() => q.ended(notice('b1', { status: 'stopped', summary: 'Background command "hangs" was stopped after its timeout of 80 ms' })), 10);
      },
    });
    const t0 = Date.now();
    await q.waitForNotice(new AbortController().signal);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(70);
    expect(stopped).toEqual(['b1']);
    expect(q.take()[0]).toMatchObject({ status: 'stopped' });
  });

  it('writes the notice as Claude Code does, the summary escaped, an agent with its report and usage', () => {
    const text = noticeText(notice('b1', { toolUseId: 'toolu_1', summary: 'Background command "a < b && c" completed (exit code 0)' }));
    expect(text).toBe(
      [
        '<task-notification>',
        '<task-id>b1</task-id>',
        '<tool-use-id>toolu_1</tool-use-id>',
        '<task-type>local_bash</task-type>',
        '<output-file>/tmp/b1.log</output-file>',
        '<status>completed</status>',
        '<summary>Background command "a &lt; b &amp;&amp; c" completed (exit code 0)</summary>',
        '</task-notification>',
        'Read the output file to retrieve the result: /tmp/b1.log',
      ].join('\n'),
    );
    const agent = noticeText(
      notice('a1', {
        taskType: 'local_agent',
        summary: 'Agent "look" completed',
        result: 'Found it.',
        usage: { totalTokens: 120, toolUses: 2, durationMs: 900 },
      }),
    );
    expect(agent).toContain('<result>Found it.</result>\n<usage>total_tokens: 120\ntool_uses: 2\nduration_ms: 900</usage>\n</task-notification>');
  });
});

describe('the loop and background notices', () => {
  it('adds a notice after the tool results of the same message, before the next request, with events', async () => {
    const requests: ModelRequest[] = [];
    const messages: ApiMessage[] = [{ role: 'user', content: 'go' }];
    const opts = agentOptions(client([callTurn('toolu_s', { id: 'b1' }), textTurn('saw it')], requests), {
      tools: [startTool(new Map())],
      taskNotices: new TaskNotices(),
    });
    const events = await collect(runAgent(messages, opts));
    const blocks = lastBlocks(requests[1]!);
    expect(blocks.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect((blocks[1] as { text: string }).text).toMatch(/^<task-notification>\n<task-id>b1<\/task-id>\n<tool-use-id>toolu_s<\/tool-use-id>/);
    const types = events.map((e) => e.type);
    expect(types.indexOf('task_started')).toBeLessThan(types.indexOf('tool_results_message'));
    expect(events.find((e) => e.type === 'task_started')).toMatchObject({ taskId: 'b1', toolUseId: 'toolu_s', taskType: 'local_bash', description: 'job b1' });
    expect(events.find((e) => e.type === 'task_notification')).toMatchObject({
      notice: { taskId: 'b1', status: 'completed' },
      text: expect.stringContaining('<task-id>b1</task-id>'),
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed', numTurns: 2 });
  });

  it('with waitForBackground, waits when the model is done and a task runs, then lets it go on', async () => {
    const requests: ModelRequest[] = [];
    const messages: ApiMessage[] = [{ role: 'user', content: 'go' }];
    const gates = new Map([['b1', gate()]]);
    const turns = [callTurn('toolu_s', { id: 'b1' }), textTurn('waiting for b1'), textTurn('b1 is done')];
    const opts = agentOptions(client(turns, requests), { tools: [startTool(gates)], taskNotices: new TaskNotices(), waitForBackground: true });
    const run = collect(runAgent(messages, opts));
    // The model said it is done while b1 runs: the loop waits, however long the machine takes to get there.
    await until(() => requests.length >= 2);
    expect(requests).toHaveLength(2);
    gates.get('b1')!.open();
    const events = await run;
    expect(requests).toHaveLength(3);
    expect(requests[2]!.messages.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'waiting for b1' }] });
    expect(lastBlocks(requests[2]!)).toEqual([{ type: 'text', text: expect.stringContaining('<task-id>b1</task-id>'), cache_control: { type: 'ephemeral' } }]);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed', numTurns: 3, finalText: 'b1 is done' });
  });

  it('without waitForBackground, ends while a task runs (its notice waits for the next run)', async () => {
    const requests: ModelRequest[] = [];
    const notices = new TaskNotices();
    const gates = new Map([['b1', gate()]]);
    const opts = agentOptions(client([callTurn('toolu_s', { id: 'b1' }), textTurn('started')], requests), { tools: [startTool(gates)], taskNotices: notices });
    const events = await collect(runAgent([{ role: 'user', content: 'go' }], opts));
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed', numTurns: 2 });
    gates.get('b1')!.open();
    await until(() => notices.hasPending());
    expect(notices.hasPending()).toBe(true);
  });

  it('stops waiting when the run is aborted', async () => {
    const ac = new AbortController();
    const gates = new Map([['b1', gate()]]);
    const opts = agentOptions(client([callTurn('toolu_s', { id: 'b1' }), textTurn('waiting')], []), {
      tools: [startTool(gates)],
      taskNotices: new TaskNotices(),
      waitForBackground: true,
      signal: ac.signal,
    });
    const run = collect(runAgent([{ role: 'user', content: 'go' }], opts));
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    expect((await run).at(-1)).toMatchObject({ type: 'done', reason: 'aborted' });
  });

  it('a notice the model need not read is only told to front ends; a task’s events count when delivered', async () => {
    const requests: ModelRequest[] = [];
    const usage = { type: 'usage' as const, usage: { ...emptyUsage(), output_tokens: 7 }, costUsd: 0.5, model: 'sub', apiDurationMs: 3 };
    const ends = (id: string) => notice(id, { silent: true, status: 'stopped', events: [usage] });
    const opts = agentOptions(client([callTurn('toolu_s', { id: 'b1' }), textTurn('ok')], requests), {
      tools: [startTool(new Map(), ends)],
      taskNotices: new TaskNotices(),
    });
    const events = await collect(runAgent([{ role: 'user', content: 'go' }], opts));
    expect(lastBlocks(requests[1]!).map((b) => b.type)).toEqual(['tool_result']);
    const delivered = events.filter((e) => e.type === 'task_notification' || (e.type === 'usage' && e.model === 'sub'));
    expect(delivered).toEqual([usage, { type: 'task_notification', notice: expect.objectContaining({ taskId: 'b1', silent: true }) }]);
    expect(delivered.find((e) => e.type === 'task_notification')).not.toHaveProperty('text');
  });

  it('a notice that came during the last request sends the model back to work, even without waiting', async () => {
    const requests: ModelRequest[] = [];
    const notices = new TaskNotices();
    const late: Turn = async function* () {
      notices.ended(notice('b9'));
      yield { type: 'text', text: 'first' };
      return final([{ type: 'text', text: 'first' }], 'end_turn');
    };
    const events = await collect(
      runAgent([{ role: 'user', content: 'go' }], agentOptions(client([late, textTurn('second')], requests), { taskNotices: notices })),
    );
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(lastBlocks(requests[1]!))).toContain('<task-id>b9</task-id>');
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed', finalText: 'second' });
  });
});
