/** Background work through the built binary: commands and agents that tell the model when they are done. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply, type RecordedRequest, type ReplyBuilder } from '../support/fake-anthropic-server.js';
import { expectExit, spawnCli } from '../support/run-cli.js';

const t = useApiAndProject();
type Body = { model: string; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const STREAM = ['--output-format', 'stream-json', '--verbose'];

/** The sub-agent's requests start with its prompt, which says SUBTASK; the rest are the session's. */
const isSub = (req: RecordedRequest) => JSON.stringify((req.body as Body).messages[0]).includes('SUBTASK');
const mainBodies = () => bodies().filter((b) => !JSON.stringify(b.messages[0]).includes('SUBTASK'));

/** One reply per request, whichever comes first: the sub-agent's, or the session's by its turn (its message count). */
function routed(sub: () => ReplyBuilder, main: (messages: number, req: RecordedRequest) => ReplyBuilder): ReplyBuilder {
  return reply((req) => (isSub(req) ? sub() : main((req.body as Body).messages.length, req)));
}

/** The task id an Agent call with run_in_background returned. */
function agentTaskId(req: RecordedRequest, toolUseId: string): string {
  const content = String(toolResultIn(req.body, toolUseId)?.content ?? '');
  const m = /task_id: (a[0-9a-f]{8})/.exec(content);
  if (!m) throw new Error(`no task id in ${content}`);
  return m[1]!;
}

function lastUserText(body: Body): string {
  const last = body.messages.at(-1)!;
  expect(last.role).toBe('user');
  return (last.content as Array<{ type: string; text?: string }>)
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

describe('background commands', () => {
  it('a command that finishes is reported to the model in the next request, after the tool results', async () => {
    t.api.script(
      reply().toolUse('Bash', { command: 'sleep 0.3; echo built', description: 'build it', run_in_background: true }, { id: 'toolu_bg' }),
      reply().toolUse('Bash', { command: 'sleep 1.5' }, { id: 'toolu_fg' }),
      reply().text('The build finished.'),
    );
    const r = await t.run(['-p', 'build in the background', '--allowedTools', 'Bash', ...STREAM]);
    expectExit(r, 0);
    const third = bodies()[2]!;
    const last = third.messages.at(-1)!;
    expect(last.content.map((b: { type: string }) => b.type)).toEqual(['tool_result', 'text']);
    const text = lastUserText(third);
    const id = /<task-id>(b[0-9a-f]{8})<\/task-id>/.exec(text)?.[1];
    expect(id).toBeDefined();
    expect(text).toContain('<tool-use-id>toolu_bg</tool-use-id>');
    expect(text).toContain('<status>completed</status>');
    expect(text).toContain('<summary>Background command "build it" completed (exit code 0)</summary>');
    const file = /<output-file>([^<]+)<\/output-file>/.exec(text)![1]!;
    expect(readFileSync(file, 'utf8')).toBe('built\n');
    const lines = r.lines<Record<string, any>>();
    expect(lines.find((l) => l.subtype === 'task_started')).toMatchObject({
      type: 'system',
      task_id: id,
      tool_use_id: 'toolu_bg',
      task_type: 'local_bash',
      description: 'build it',
    });
    expect(lines.find((l) => l.subtype === 'task_notification')).toMatchObject({
      type: 'system',
      task_id: id,
      tool_use_id: 'toolu_bg',
      status: 'completed',
      output_file: file,
      summary: 'Background command "build it" completed (exit code 0)',
    });
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'The build finished.' });
  });
});

describe('the Stop hook and background work', () => {
  it("the Stop hook's background_tasks lists what still runs as the model stops, and is empty once it has ended", async () => {
    const settings = {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR/stops.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/stops.jsonl"' }] }] },
    };
    await t.project.write('.claude/settings.json', JSON.stringify(settings));
    t.api.script(
      reply().toolUse('Bash', { command: 'sleep 0.8; echo ok', description: 'slow check', run_in_background: true }, { id: 'toolu_bg' }),
      reply().text('Waiting for the check.'),
      reply().text('The check passed.'),
    );
    expectExit(await t.run(['-p', 'check', '--allowedTools', 'Bash']), 0);
    const stops = readFileSync(t.project.path('stops.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(stops).toHaveLength(2);
    expect(stops[0].background_tasks).toEqual([
      {
        task_id: expect.stringMatching(/^b[0-9a-f]{8}$/),
        task_type: 'local_bash',
        status: 'running',
        description: 'slow check',
        command: 'sleep 0.8; echo ok',
        started_at: expect.any(String),
      },
    ]);
    expect(stops[1]).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'The check passed.', background_tasks: [] });
  });
});

describe('print mode waiting for background commands', () => {
  it('a command past its timeout is stopped and the model is told', async () => {
    t.api.script(
      reply().toolUse('Bash', { command: 'sleep 30', run_in_background: true, timeout: 400 }, { id: 'toolu_bg' }),
      reply().text('Waiting for it.'),
      reply().text('It did not finish in time.'),
    );
    const r = await t.run(['-p', 'go', '--allowedTools', 'Bash', '--output-format', 'json']);
    expectExit(r, 0);
    const text = lastUserText(bodies()[2]!);
    expect(text).toContain('<status>stopped</status>\n<summary>Background command "sleep 30" was stopped after its timeout of 400 ms</summary>');
    expect(r.json<any>().result).toBe('It did not finish in time.');
  });

  it('Ctrl-C ends the wait: the run stops with 130', async () => {
    t.api.script(reply().toolUse('Bash', { command: 'sleep 60', run_in_background: true }), reply().text('Waiting for it.'));
    const p = spawnCli(['-p', 'go', '--allowedTools', 'Bash', '--output-format', 'json'], { cwd: t.project.dir, home: t.project.home, baseUrl: t.api.url });
    const deadline = Date.now() + 20_000;
    while (t.api.messageRequests().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    const sent = Date.now();
    p.child.kill('SIGINT');
    const r = await p.result;
    expect(r.code).toBe(130);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(r.json<any>()).toMatchObject({ type: 'result', is_error: true, errors: ['interrupted'] });
  });
});

describe('background agents', () => {
  it('print mode waits for the agent; the model receives its notice with the report, and answers; its cost counts', async () => {
    const agentCall = { description: 'find the answer', prompt: 'SUBTASK: find the answer', model: 'haiku', run_in_background: true };
    const main = (n: number) =>
      n === 1 ? reply().toolUse('Agent', agentCall, { id: 'toolu_a' }) : n === 3 ? reply().text('Waiting for the agent.') : reply().text('The agent found 42.');
    const sub = () => reply().delay(1500).text('report: 42');
    t.api.script(...Array.from({ length: 4 }, () => routed(sub, main)));
    const r = await t.run(['-p', 'ask an agent', ...STREAM]);
    expectExit(r, 0);
    const mains = mainBodies();
    expect(mains).toHaveLength(3);
    expect(String(toolResultIn(mains[1]!, 'toolu_a').content)).toMatch(/^Async agent launched successfully\.\ntask_id: a[0-9a-f]{8}/);
    const text = lastUserText(mains[2]!);
    expect(mains[2]!.messages.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Waiting for the agent.' }] });
    expect(text).toMatch(/^<task-notification>\n<task-id>a[0-9a-f]{8}<\/task-id>\n<tool-use-id>toolu_a<\/tool-use-id>\n<task-type>local_agent<\/task-type>/);
    expect(text).toContain(
      '<status>completed</status>\n<summary>Agent "find the answer" completed</summary>\n<result>report: 42</result>\n<usage>total_tokens:',
    );
    const lines = r.lines<Record<string, any>>();
    expect(lines.find((l) => l.subtype === 'task_started')).toMatchObject({ task_type: 'local_agent', tool_use_id: 'toolu_a', description: 'find the answer' });
    expect(lines.find((l) => l.subtype === 'task_notification')).toMatchObject({
      status: 'completed',
      tool_use_id: 'toolu_a',
      summary: 'Agent "find the answer" completed',
      usage: { tool_uses: 0 },
    });
    const result = lines.at(-1)!;
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'The agent found 42.' });
    expect(Object.keys(result.modelUsage)).toContain('claude-haiku-4-5');
  });

  it('stream-json has a task_progress line each time the background agent runs a tool, between its start and its notice', async () => {
    await t.project.write('a.txt', 'alpha\n');
    await t.project.write('b.txt', 'beta\n');
    const agentCall = { description: 'read both', prompt: 'SUBTASK: read both files', subagent_type: 'general-purpose', run_in_background: true };
    const main = (n: number) =>
      n === 1 ? reply().toolUse('Agent', agentCall, { id: 'toolu_a' }) : n === 3 ? reply().text('Waiting.') : reply().text('Both read.');
    let subTurn = 0;
    const sub = () => {
      subTurn++;
      if (subTurn === 1)
        return reply()
          .delay(300)
          .toolUse('Read', { file_path: t.project.path('a.txt') });
      if (subTurn === 2) return reply().toolUse('Read', { file_path: t.project.path('b.txt') });
      return reply().text('report: alpha and beta');
    };
    t.api.script(...Array.from({ length: 6 }, () => routed(sub, main)));
    const r = await t.run(['-p', 'read them in the background', ...STREAM]);
    expectExit(r, 0);
    const lines = r.lines<Record<string, any>>();
    const at = (subtype: string) => lines.findIndex((l) => l.subtype === subtype);
    const progress = lines.filter((l) => l.subtype === 'task_progress');
    expect(progress).toHaveLength(2);
    const started = lines[at('task_started')]!;
    expect(progress[0]).toMatchObject({
      type: 'system',
      task_id: started.task_id,
      tool_use_id: 'toolu_a',
      description: 'read both',
      last_tool_name: 'Read',
      subagent_type: 'general-purpose',
      usage: { tool_uses: 1 },
    });
    expect(progress[1]).toMatchObject({ usage: { tool_uses: 2 } });
    expect(progress[1]!.usage.total_tokens).toBeGreaterThan(0);
    expect(typeof progress[1]!.usage.duration_ms).toBe('number');
    expect(progress[0]!.session_id).toBe(started.session_id);
    expect(at('task_started')).toBeLessThan(lines.indexOf(progress[0]!));
    expect(lines.indexOf(progress[1]!)).toBeLessThan(at('task_notification'));
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'Both read.' });
  });

  it('TaskOutput on an agent task waits for its report', async () => {
    const main = (n: number, req: RecordedRequest) =>
      n === 1
        ? reply().toolUse('Agent', { description: 'look', prompt: 'SUBTASK: look', run_in_background: true }, { id: 'toolu_a' })
        : n === 3
          ? reply().toolUse('TaskOutput', { task_id: agentTaskId(req, 'toolu_a') }, { id: 'toolu_out' })
          : reply().text('It is 42.');
    t.api.script(...Array.from({ length: 4 }, () => routed(() => reply().delay(400).text('The answer is 42.'), main)));
    const r = await t.run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    const last = mainBodies().at(-1)!;
    const out = String(toolResultIn(last, 'toolu_out').content);
    expect(out).toContain('<task_type>local_agent</task_type>\n<status>completed</status>');
    expect(out).toContain('<output>\nThe answer is 42.\n</output>');
    expect(r.json<any>().result).toBe('It is 42.');
  });

  it('TaskStop on an agent task stops it; the model is not told twice and the run ends', async () => {
    let stopped = '';
    const main = (n: number, req: RecordedRequest) => {
      if (n === 1) return reply().toolUse('Agent', { description: 'slow work', prompt: 'SUBTASK: never ends', run_in_background: true }, { id: 'toolu_a' });
      if (n === 3) return reply().toolUse('TaskStop', { task_id: (stopped = agentTaskId(req, 'toolu_a')) }, { id: 'toolu_stop' });
      return reply().text('Stopped the agent.');
    };
    t.api.script(...Array.from({ length: 4 }, () => routed(() => reply().hang(), main)));
    const started = Date.now();
    const r = await t.run(['-p', 'go', ...STREAM]);
    expectExit(r, 0);
    expect(Date.now() - started).toBeLessThan(20_000);
    const last = mainBodies().at(-1)!;
    expect(String(toolResultIn(last, 'toolu_stop').content)).toBe(`Stopped task ${stopped} (general-purpose: slow work).`);
    expect(JSON.stringify(last)).not.toContain('<task-notification>');
    const lines = r.lines<Record<string, any>>();
    expect(lines.find((l) => l.subtype === 'task_notification')).toMatchObject({
      task_id: stopped,
      status: 'stopped',
      summary: 'Agent "slow work" was stopped',
    });
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'Stopped the agent.' });
  });
});
