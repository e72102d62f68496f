/** The result line's figures counted from a run's events: first word, refusals, sub-agents. */
import { describe, expect, it } from 'vitest';
import type { AgentEvent, GateRecord } from '../../../src/base/events.js';
import { RunFigures } from '../../../src/core/run-figures.js';

const agentResult = (id: string, input: object, verdict: GateRecord['verdict'], isError = false): AgentEvent => ({
  type: 'tool_result',
  toolUseId: id,
  name: 'Agent',
  input,
  result: { content: 'report', ...(isError ? { isError: true } : {}) },
  trace: [{ gate: 'execute', verdict, durationMs: 1 }],
  durationMs: 1,
});
const notice = (taskId: string, status: 'completed' | 'failed' | 'stopped', silent = false): AgentEvent => ({
  type: 'task_notification',
  notice: { taskId, taskType: 'local_agent', status, summary: '', outputFile: '', ...(silent ? { silent: true } : {}) },
});

describe('RunFigures', () => {
  it('times the first content delta from the start, and counts refusals', () => {
    let now = 1000;
    const f = new RunFigures(() => now);
    now = 1040;
    f.see({ type: 'stream_event', event: { type: 'message_start' } });
    expect(f.fields().ttft_ms).toBeUndefined();
    now = 1100;
    f.see({ type: 'stream_event', event: { type: 'content_block_delta' } });
    now = 1500;
    f.see({ type: 'stream_event', event: { type: 'content_block_delta' } });
    f.see({ type: 'turn_end', stopReason: 'refusal' });
    f.see({ type: 'turn_end', stopReason: 'end_turn' });
    expect(f.fields()).toMatchObject({ fast_mode_state: 'off', ttft_ms: 100, safety_stops: 1 });
  });

  it('counts the sub-agents that ran, in the foreground and in the background, and how each ended', () => {
    const f = new RunFigures();
    f.see(agentResult('t1', { subagent_type: 'Explore', run_in_background: false }, 'passed'));
    f.see(agentResult('t2', {}, 'passed', true));
    f.see(agentResult('t3', {}, 'refused')); // never ran: an unknown agent type
    f.see(agentResult('t4', {}, 'aborted'));
    for (const [task, call] of [
      ['b1', 't5'],
      ['b2', 't6'],
      ['b3', 't7'],
    ] as const) {
      f.see({ type: 'task_started', taskId: task, toolUseId: call, taskType: 'local_agent', description: 'x' });
      f.see(agentResult(call, { run_in_background: true }, 'passed'));
    }
    f.see({ type: 'task_started', taskId: 'sh', taskType: 'local_bash', description: 'npm test' });
    f.see(notice('b1', 'completed'));
    f.see(notice('b2', 'stopped', true));
    f.see(notice('b3', 'stopped'));
    f.see(notice('sh', 'failed'));
    expect(f.fields().subagent_stats).toEqual({
      spawned: 6,
      requested: { background: 3, foreground: 1, unset: 2 },
      started_in_background: 3,
      max_depth: 1,
      spawned_by_subagents: 0,
      completed: 2,
      failed: 1,
      killed: { parent: 2, user: 0, system: 1 },
      refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 },
      by_type: { Explore: 1, 'general-purpose': 5 },
    });
  });
});
