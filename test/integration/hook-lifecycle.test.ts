/** The later hook events through the built binary: Setup, PostToolBatch, PostCompact, StopFailure and SubagentStart. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } });
type Body = { messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const text = (m: { content: any }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));

/** A command hook that appends its stdin to <event>.jsonl in the project and prints `out`. */
function recorder(event: string, out = '') {
  const file = `"$CLAUDE_PROJECT_DIR/${event}.jsonl"`;
  return { type: 'command', command: `cat >> ${file}; echo >> ${file}; printf '%s' '${out}'` };
}
const seen = (event: string) =>
  readFileSync(t.project.path(`${event}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const settings = (hooks: object) => t.project.write('.claude/settings.json', JSON.stringify({ hooks }));
const context = (event: string, text: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });

describe('Setup hooks', () => {
  it('-p --init runs them (matcher "init") before the session; their additionalContext reaches the model', async () => {
    await settings({
      Setup: [
        { matcher: 'init', hooks: [recorder('Setup', context('Setup', 'The database is seeded.'))] },
        { matcher: 'maintenance', hooks: [recorder('Other')] },
      ],
    });
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'go', '--init']), 0);
    expect(seen('Setup')).toEqual([expect.objectContaining({ hook_event_name: 'Setup', trigger: 'init' })]);
    expect(t.project.exists('Other.jsonl')).toBe(false);
    expect(text(bodies()[0]!.messages[0]!)).toContain('The database is seeded.');
  });

  it('--init-only runs them and exits, with no request and no API key needed; --maintenance picks the other matcher', async () => {
    await settings({ Setup: [{ hooks: [recorder('Setup')] }] });
    const r = await t.run(['--init-only'], { env: { ANTHROPIC_API_KEY: undefined } });
    expectExit(r, 0);
    expect(seen('Setup')).toEqual([expect.objectContaining({ trigger: 'init' })]);
    expect(t.api.requests).toHaveLength(0);
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'go', '--maintenance']), 0);
    expect(seen('Setup').map((s) => s.trigger)).toEqual(['init', 'maintenance']);
  });
});

describe('PostToolBatch hooks', () => {
  it('see every call of the turn with its result, and add context to the results the model reads', async () => {
    await settings({ PostToolBatch: [{ hooks: [recorder('PostToolBatch', context('PostToolBatch', 'Both files are fixtures.'))] }] });
    t.api.script(
      reply()
        .toolUse('Read', { file_path: t.project.path('a.txt') }, { id: 'toolu_a' })
        .toolUse('Read', { file_path: t.project.path('b.txt') }, { id: 'toolu_b' }),
      reply().text('read both'),
    );
    expectExit(await t.run(['-p', 'read both']), 0);
    const [batch] = seen('PostToolBatch');
    expect(batch.tool_calls.map((c: any) => [c.tool_name, c.tool_use_id])).toEqual([
      ['Read', 'toolu_a'],
      ['Read', 'toolu_b'],
    ]);
    expect(batch.tool_calls[0].tool_response).toContain('alpha');
    const results = bodies()[1]!.messages.at(-1)!.content;
    expect(results.map((b: any) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(results[2].text).toContain('Both files are fixtures.');
  });

  it('a block stops the run after the batch', async () => {
    await settings({ PostToolBatch: [{ hooks: [recorder('PostToolBatch', JSON.stringify({ decision: 'block', reason: 'Enough reading.' }))] }] });
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('a.txt') }), reply().text('never asked'));
    const r = await t.run(['-p', 'read']);
    expect(r.stderr).toContain('Enough reading.');
    expect(t.api.messageRequests()).toHaveLength(1);
  });
});

describe('PostCompact, StopFailure and SubagentStart hooks', () => {
  it('PostCompact gets the trigger and the summary', async () => {
    await settings({ PostCompact: [{ matcher: 'auto', hooks: [recorder('PostCompact')] }] });
    t.api.script(
      reply()
        .toolUse('Read', { file_path: t.project.path('a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().text('SUMMARY: a.txt was read.'),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'read a', '--allowedTools', 'Read'], { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '40000' } }), 0);
    expect(seen('PostCompact')).toEqual([
      expect.objectContaining({ hook_event_name: 'PostCompact', trigger: 'auto', compact_summary: 'SUMMARY: a.txt was read.' }),
    ]);
  });

  it('StopFailure fires when the turn ends on an API error, matched on its type', async () => {
    await settings({ StopFailure: [{ matcher: 'invalid_request', hooks: [recorder('StopFailure')] }] });
    t.api.script(reply().error(400, { message: 'prompt is malformed' }));
    const r = await t.run(['-p', 'go']);
    expect(r.code).toBe(1);
    expect(seen('StopFailure')).toEqual([
      expect.objectContaining({ hook_event_name: 'StopFailure', error: 'invalid_request', error_details: expect.stringContaining('prompt is malformed') }),
    ]);
  });

  it('SubagentStart fires before the sub-agent runs, and its context is given to the sub-agent', async () => {
    await settings({ SubagentStart: [{ matcher: 'Explore', hooks: [recorder('SubagentStart', context('SubagentStart', 'Skip the vendor folder.'))] }] });
    t.api.script(
      reply().toolUse('Agent', { description: 'look', prompt: 'SUBTASK: find a.txt', subagent_type: 'Explore' }),
      reply().text('found it'),
      reply().text('The sub-agent found it.'),
    );
    expectExit(await t.run(['-p', 'delegate']), 0);
    const [start] = seen('SubagentStart');
    expect(start).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'Explore', agent_id: expect.any(String) });
    const sub = bodies().find((b) => text(b.messages[0]!).includes('SUBTASK'))!;
    expect(text(sub.messages[0]!)).toContain('Skip the vendor folder.');
  });
});

describe('PostToolUse output replaced', () => {
  it("updatedToolOutput is what the model reads instead of the tool's result (here: a secret masked)", async () => {
    await t.project.write('secret.env', 'API_KEY=sk-live-123\n');
    const mask = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'API_KEY=[masked]' } });
    await settings({ PostToolUse: [{ matcher: 'Read', hooks: [recorder('PostToolUse', mask)] }] });
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('secret.env') }, { id: 'toolu_s' }), reply().text('It holds a masked key.'));
    const r = await t.run(['-p', 'read it', '--output-format', 'stream-json', '--verbose', '--include-gate-traces']);
    expectExit(r, 0);
    const sent = JSON.stringify(bodies()[1]!.messages.at(-1));
    expect(sent).toContain('API_KEY=[masked]');
    expect(sent).not.toContain('sk-live-123');
    expect(seen('PostToolUse')[0].tool_response).toBeTruthy();
    const traced = r.lines<any>().find((l) => l.type === 'user' && JSON.stringify(l).includes('gate_trace'));
    expect(JSON.stringify(traced ?? r.lines())).toContain('output replaced by PostToolUse hook');
  });
});

describe('InstructionsLoaded and SessionStart titles', () => {
  it('InstructionsLoaded fires once per memory file the session loaded, with its type', async () => {
    await t.project.write('CLAUDE.md', 'Use tabs.\n');
    await t.project.write('CLAUDE.local.md', 'My notes.\n');
    await settings({ InstructionsLoaded: [{ matcher: 'session_start', hooks: [recorder('InstructionsLoaded')] }] });
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'hi']), 0);
    expect(seen('InstructionsLoaded').map((e) => [e.file_path, e.memory_type, e.load_reason])).toEqual([
      [t.project.path('CLAUDE.md'), 'Project', 'session_start'],
      [t.project.path('CLAUDE.local.md'), 'Local', 'session_start'],
    ]);
  });

  it.each(['SessionStart', 'UserPromptSubmit'])("a %s hook's sessionTitle names the session in its file", async (event) => {
    const title = JSON.stringify({ hookSpecificOutput: { hookEventName: event, sessionTitle: 'Parser rework' } });
    await settings({ [event]: [{ hooks: [recorder(event, title)] }] });
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'hi']), 0);
    const dir = path.join(t.project.home, '.claude', 'projects');
    const slug = readdirSync(dir)[0]!;
    const text = readFileSync(path.join(dir, slug, readdirSync(path.join(dir, slug))[0]!), 'utf8');
    expect(text).toContain('"type":"custom-title","customTitle":"Parser rework"');
  });
});

describe('CLAUDE_ENV_FILE and CwdChanged', () => {
  it('a SessionStart hook exports a variable for later Bash commands; CwdChanged fires after a cd and may export too', async () => {
    await t.project.write('sub/keep.txt', '');
    await settings({
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo "export GREETING=hola" >> "$CLAUDE_ENV_FILE"' }] }],
      CwdChanged: [{ hooks: [recorder('CwdChanged'), { type: 'command', command: 'echo "export WHERE=moved" >> "$CLAUDE_ENV_FILE"' }] }],
    });
    t.api.script(
      reply().toolUse('Bash', { command: 'echo "greeting=$GREETING"' }, { id: 'toolu_1' }),
      reply().toolUse('Bash', { command: 'cd sub' }, { id: 'toolu_2' }),
      reply().toolUse('Bash', { command: 'echo "where=$WHERE greeting=$GREETING"' }, { id: 'toolu_3' }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'go', '--allowedTools', 'Bash']), 0);
    const result = (i: number, id: string) =>
      JSON.stringify(
        bodies()
          [i]!.messages.at(-1)!
          .content.find((b: any) => b.tool_use_id === id),
      );
    expect(result(1, 'toolu_1')).toContain('greeting=hola');
    expect(seen('CwdChanged')).toEqual([expect.objectContaining({ hook_event_name: 'CwdChanged', previous_cwd: t.project.dir, cwd: t.project.path('sub') })]);
    expect(result(3, 'toolu_3')).toContain('where=moved greeting=hola');
  });
});

describe('FileChanged', () => {
  it("fires for the files a SessionStart hook asked to watch, matched on the file's name; it may export variables too", async () => {
    const watched = t.project.path('versions.txt');
    const watchOut = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', watchPaths: [watched] } });
    await settings({
      SessionStart: [{ hooks: [recorder('SessionStart', watchOut)] }],
      FileChanged: [
        { matcher: 'versions.txt', hooks: [recorder('FileChanged'), { type: 'command', command: 'echo "export FROM_WATCH=yes" >> "$CLAUDE_ENV_FILE"' }] },
      ],
    });
    t.api.script(
      reply().toolUse('Bash', { command: 'echo "node 20" > versions.txt' }, { id: 'toolu_w' }),
      reply().delay(800).toolUse('Bash', { command: 'echo "from=$FROM_WATCH"' }, { id: 'toolu_r' }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'go', '--allowedTools', 'Bash']), 0);
    expect(seen('FileChanged')).toEqual([expect.objectContaining({ hook_event_name: 'FileChanged', file_path: watched, event: 'add' })]);
    const last = JSON.stringify(bodies()[2]!.messages.at(-1));
    expect(last).toContain('from=yes');
  });
});
