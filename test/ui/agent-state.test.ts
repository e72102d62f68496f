import { describe, expect, it } from 'vitest';
import type { AgentEvent, TaskNotice } from '../../src/base/events.js';
import { AgentView } from '../../src/ui/agent-state.js';
import { itemsFromMessages } from '../../src/ui/resume-items.js';
import { noticeText } from '../../src/core/task-notices.js';

const trace = [{ gate: 'execute' as const, verdict: 'passed' as const, durationMs: 1 }];

function feed(view: AgentView, events: AgentEvent[]) {
  for (const e of events) view.apply(e);
  return view.snapshot();
}

describe('AgentView', () => {
  it('keeps streaming text live and moves finished paragraphs into items', () => {
    const view = new AgentView();
    view.startRun(0);
    let snap = feed(view, [{ type: 'assistant_delta', text: 'First para' }]);
    expect(snap.items).toEqual([]);
    expect(snap.live.text).toBe('First para');
    snap = feed(view, [{ type: 'assistant_delta', text: 'graph.\n\nSecond' }]);
    expect(snap.items).toEqual([{ id: 1, kind: 'assistant', text: 'First paragraph.', continues: false }]);
    expect(snap.live).toMatchObject({ text: 'Second', continues: true });
    expect(snap.status.tokens).toBeGreaterThan(0);
  });

  it('a tool request commits the text before it; the result becomes an item and a trace', () => {
    const view = new AgentView();
    view.startRun(0);
    let snap = feed(view, [
      { type: 'assistant_delta', text: 'Reading it' },
      { type: 'tool_request', toolUseId: 't1', name: 'Read', input: { file_path: '/a' }, summary: 'Read /a' },
      { type: 'tool_progress', toolUseId: 't1', message: 'line one\nline two' },
    ]);
    expect(snap.items.map((i) => i.kind)).toEqual(['assistant']);
    expect(snap.live.tools).toMatchObject([{ toolUseId: 't1', tail: ['line one', 'line two'] }]);
    snap = feed(view, [
      { type: 'tool_result', toolUseId: 't1', name: 'Read', input: { file_path: '/a' }, result: { content: 'x'.repeat(50_000) }, trace, durationMs: 3 },
    ]);
    expect(snap.live.tools).toEqual([]);
    const item = snap.items[1]!;
    expect(item.kind === 'tool' && item.tool.summary).toBe('Read /a');
    // Kept whole up to 20,000 characters (Ctrl+O shows them), cut after.
    expect(item.kind === 'tool' && (item.tool.result.content as string).length).toBeLessThan(20_100);
    expect(view.traces).toMatchObject([{ toolUseId: 't1', name: 'Read', isError: false }]);
  });

  it('an aborted run shows "interrupted" and ends the work', () => {
    const view = new AgentView();
    view.startRun(0);
    const snap = feed(view, [
      { type: 'assistant_delta', text: 'half' },
      { type: 'done', reason: 'aborted', numTurns: 1, finalText: '' },
    ]);
    expect(snap.items.map((i) => i.kind)).toEqual(['assistant', 'interrupted']);
    expect(snap.status.working).toBe(false);
  });

  it('usage is added to the totals; errors and warnings become items', () => {
    const view = new AgentView();
    const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 50 };
    const snap = feed(view, [
      { type: 'usage', usage, costUsd: 0.01, model: 'm', apiDurationMs: 500 },
      { type: 'warning', message: 'hook said hi' },
      { type: 'error', message: 'the API failed' },
    ]);
    expect(view.totals.costUsd).toBeCloseTo(0.01);
    expect(view.totals.byModel.get('m')?.usage.output_tokens).toBe(20);
    expect(snap.items).toMatchObject([
      { kind: 'info', tone: 'warning' },
      { kind: 'info', tone: 'error', text: 'the API failed' },
    ]);
  });

  it('a burst of items is written a part per frame', () => {
    const view = new AgentView();
    for (let i = 0; i < 100; i++) view.add({ kind: 'user', text: `q${i}` });
    expect(view.snapshot().items).toHaveLength(40);
    expect(view.dirty).toBe(true);
    view.snapshot();
    expect(view.snapshot().items).toHaveLength(100);
    expect(view.dirty).toBe(false);
  });
});

describe('resumed conversation', () => {
  it('becomes prompts, answers and tool calls with their results', () => {
    const { items, hidden } = itemsFromMessages([
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'u1', name: 'Bash', input: { command: 'ls' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'u1', content: 'a.txt' },
          { type: 'text', text: '[Request interrupted by the user]' },
        ],
      },
    ]);
    expect(hidden).toBe(0);
    expect(items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'interrupted']);
    expect(items[2]).toMatchObject({ tool: { name: 'Bash', result: { content: 'a.txt' } } });
    expect(
      itemsFromMessages(
        Array.from({ length: 10 }, (_, i) => ({ role: 'user' as const, content: `m${i}` })),
        3,
      ).hidden,
    ).toBe(7);
  });
});

describe('the model’s task in the status', () => {
  it('follows the in-progress item of the latest TodoWrite list, across runs', () => {
    const v = new AgentView();
    v.startRun();
    const todos = [
      { content: 'Read', status: 'completed', activeForm: 'Reading' },
      { content: 'Fix', status: 'in_progress', activeForm: 'Fixing the bug' },
    ];
    v.apply({
      type: 'tool_result',
      toolUseId: 't',
      name: 'TodoWrite',
      input: {},
      result: { content: 'ok' },
      display: { todos },
      trace: [],
      durationMs: 0,
    } as never);
    expect(v.snapshot().status.activity).toBe('Fixing the bug');
    v.startRun();
    expect(v.snapshot().status.activity).toBe('Fixing the bug');
    v.apply({
      type: 'tool_result',
      toolUseId: 't2',
      name: 'TodoWrite',
      input: {},
      result: { content: 'ok' },
      display: { todos: [] },
      trace: [],
      durationMs: 0,
    } as never);
    expect(v.snapshot().status.activity).toBeUndefined();
  });
});

describe('background task notices in the transcript', () => {
  const notice: TaskNotice = {
    taskId: 'a1b2c3d4e',
    taskType: 'local_agent',
    status: 'failed',
    summary: 'Agent "look <here>" failed',
    outputFile: '/tmp/a.log',
    result: 'boom',
  };

  it('a notice shows one line; one the model need not read shows none', () => {
    const view = new AgentView();
    const snap = feed(view, [
      { type: 'task_notification', notice, text: noticeText(notice) },
      { type: 'task_notification', notice: { ...notice, taskId: 'b1', status: 'stopped', silent: true } },
    ]);
    expect(snap.items).toEqual([{ id: 1, kind: 'info', tone: 'warning', text: '● Background task a1b2c3d4e failed: Agent "look <here>" failed' }]);
  });

  it('a resumed session shows its notices the same way', () => {
    const { items } = itemsFromMessages([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'text', text: 'Started.' }] },
      { role: 'user', content: [{ type: 'text', text: noticeText(notice) }] },
    ]);
    expect(items.at(-1)).toEqual({ kind: 'info', tone: 'warning', text: '● Background task a1b2c3d4e failed: Agent "look <here>" failed' });
  });
});
