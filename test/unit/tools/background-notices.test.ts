/** Background commands and agents tell the conversation when they end; TaskOutput and TaskStop work on both. */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../src/base/usage.js';
import type { AgentEvent, TaskNotice } from '../../../src/base/events.js';
import type { SubagentResult, SubagentSpec, ToolContext } from '../../../src/base/tool.js';
import { TaskNotices } from '../../../src/core/task-notices.js';
import { agentTool } from '../../../src/tools/agent/index.js';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { killAllBackgroundTasks, listBackgroundTasks, taskOutputTool, taskStopTool } from '../../../src/tools/tasks/index.js';
import { createToolEnv, resultText, runTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeAll(() => initBashParser());
afterEach(() => {
  killAllBackgroundTasks();
  env?.cleanup();
});

function newEnv(overrides: Partial<ToolContext> = {}): { env: ToolEnv; notices: TaskNotices } {
  const notices = new TaskNotices();
  env = createToolEnv({ env: { PATH: process.env.PATH }, backgroundTasks: notices, ...overrides });
  return { env, notices };
}

async function nextNotice(notices: TaskNotices): Promise<TaskNotice> {
  await notices.waitForNotice(AbortSignal.timeout(10_000));
  const [n] = notices.take();
  if (!n) throw new Error('no notice');
  return n;
}

describe('background commands', () => {
  it('report their start and, once ended, a notice with the exit code', async () => {
    const { notices } = newEnv();
    const call = env.nextCall();
    const r = await runTool(bashTool, { command: 'echo hi; exit 3', description: 'say hi', run_in_background: true, timeout: 5000 }, call, env.state);
    expect(resultText(r.modelResult)).toContain('You will be told when it finishes');
    const [started] = notices.runningTasks();
    expect(started).toMatchObject({ taskId: r.output.backgroundTaskId, toolUseId: call.toolUseId, taskType: 'local_bash', description: 'say hi' });
    expect(started!.deadline! - Date.now()).toBeLessThanOrEqual(5000);
    const n = await nextNotice(notices);
    expect(n).toMatchObject({
      taskId: r.output.backgroundTaskId,
      toolUseId: call.toolUseId,
      status: 'failed',
      summary: 'Background command "say hi" failed with exit code 3',
      outputFile: r.output.outputFile,
    });
    expect(n.silent).toBeUndefined();
  });

  it('stopped with TaskStop: the notice is only for front ends; past its timeout a waiting run stops it', async () => {
    const { notices } = newEnv();
    const a = await runTool(bashTool, { command: 'sleep 30', run_in_background: true }, env.nextCall(), env.state);
    await runTool(taskStopTool, { task_id: a.output.backgroundTaskId }, env.nextCall());
    expect(await nextNotice(notices)).toMatchObject({ status: 'stopped', silent: true, summary: 'Background command "sleep 30" was stopped' });
    const b = await runTool(bashTool, { command: 'sleep 30', run_in_background: true, timeout: 300 }, env.nextCall(), env.state);
    const n = await nextNotice(notices);
    expect(n).toMatchObject({
      taskId: b.output.backgroundTaskId,
      status: 'stopped',
      summary: 'Background command "sleep 30" was stopped after its timeout of 300 ms',
    });
    expect(n.silent).toBeUndefined();
  });
});

/** A sub-agent the test finishes: `finish(text)` ends it; its abort signal ends it as interrupted. */
function fakeSubagents() {
  const runs: Array<{ spec: SubagentSpec; signal: AbortSignal; background?: boolean; finish: (text: string) => void }> = [];
  const runSubagent = (spec: SubagentSpec, signal: AbortSignal, onEvent: (ev: AgentEvent) => void, o?: { background?: boolean }) =>
    new Promise<SubagentResult>((resolve) => {
      const result = (text: string, reason: SubagentResult['reason']): SubagentResult => ({
        agentId: 'x1',
        text,
        reason,
        turns: 1,
        toolCalls: 2,
        usage: { ...emptyUsage(), input_tokens: 10, output_tokens: 5 },
      });
      onEvent({ type: 'usage', usage: { ...emptyUsage(), output_tokens: 5 }, costUsd: 0.01, model: 'sub-model', apiDurationMs: 1 });
      signal.addEventListener('abort', () => resolve(result('half done', 'aborted')), { once: true });
      runs.push({ spec, signal, background: o?.background, finish: (text) => resolve(result(text, 'completed')) });
    });
  return { runs, runSubagent };
}

describe('background agents', () => {
  it('return at once; TaskOutput says it is running, then gives the report; the notice carries report, usage and cost', async () => {
    const sub = fakeSubagents();
    const { notices } = newEnv({ runSubagent: sub.runSubagent });
    const call = env.nextCall();
    const r = await runTool(agentTool, { description: 'find it', prompt: 'Find the answer', subagent_type: 'Explore', run_in_background: true }, call);
    const text = resultText(r.modelResult);
    expect(text).toMatch(/^Async agent launched successfully\.\ntask_id: a[0-9a-f]{8}/);
    const taskId = /task_id: (a[0-9a-f]{8})/.exec(text)![1]!;
    expect(sub.runs[0]).toMatchObject({ background: true, spec: { agentType: 'Explore', prompt: 'Find the answer' } });
    // Esc on the turn that started it does not reach it.
    env.abort.abort();
    expect(sub.runs[0]!.signal.aborted).toBe(false);
    const running = await runTool(taskOutputTool, { task_id: taskId, block: false }, env.nextCall({ signal: new AbortController().signal }));
    expect(resultText(running.modelResult)).toContain('<status>running</status>\n<note>the agent is still working; you are told when it finishes');
    expect(listBackgroundTasks().find((t) => t.id === taskId)).toMatchObject({ kind: 'agent', agentType: 'Explore', description: 'find it' });
    sub.runs[0]!.finish('The answer is 42.');
    const done = await runTool(taskOutputTool, { task_id: taskId }, env.nextCall({ signal: new AbortController().signal }));
    expect(done.output).toMatchObject({ status: 'completed', output: 'The answer is 42.' });
    expect(resultText(done.modelResult)).toContain('<task_type>local_agent</task_type>');
    const n = await nextNotice(notices);
    expect(n).toMatchObject({
      taskId,
      toolUseId: call.toolUseId,
      taskType: 'local_agent',
      status: 'completed',
      summary: 'Agent "find it" completed',
      result: 'The answer is 42.',
      usage: { totalTokens: 15, toolUses: 2 },
    });
    expect(n.events).toEqual([expect.objectContaining({ type: 'usage', model: 'sub-model', costUsd: 0.01 })]);
    expect(readFileSync(n.outputFile, 'utf8')).toBe('The answer is 42.\n');
    expect(n.outputFile).toContain(`${env.home}/.wicket/sessions/test-session/agent-`);
  });

  it('TaskStop interrupts it; the model knows, so the notice is only for front ends', async () => {
    const sub = fakeSubagents();
    const { notices } = newEnv({ runSubagent: sub.runSubagent });
    const r = await runTool(agentTool, { description: 'slow', prompt: 'Take your time', run_in_background: true }, env.nextCall());
    const taskId = /task_id: (a[0-9a-f]{8})/.exec(resultText(r.modelResult))![1]!;
    const stop = await runTool(taskStopTool, { task_id: taskId }, env.nextCall());
    expect(stop.output).toMatchObject({ stopped: true, status: 'killed', label: 'general-purpose: slow' });
    expect(sub.runs[0]!.signal.aborted).toBe(true);
    const n = await nextNotice(notices);
    expect(n).toMatchObject({ status: 'stopped', silent: true, summary: 'Agent "slow" was stopped' });
    expect(n.result).toContain('The agent was interrupted before it finished.\nIts last words: half done');
    const out = await runTool(taskOutputTool, { task_id: taskId }, env.nextCall());
    expect(out.output).toMatchObject({ status: 'killed', output: expect.stringContaining('half done') });
  });
});
