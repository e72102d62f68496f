// The command lines and stdin the Agent SDK writes (PROTOCOL.md §1–§4), given to the built wicket
// directly: every flag of the SDK's table taken in its `--flag=value` form, those wicket cannot
// honour said once on stderr; the launch-critical fields of initialize applied and confirmed;
// only JSON on stdout; the end of input ends the run.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { spawn } from 'node:child_process';
import { BIN_PATH, cliEnv, expectExit } from '../../support/run-cli.js';
import { waitUntil } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
const SDK_ARGV = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];
const line = (o: object) => `${JSON.stringify(o)}\n`;
const initialize = (request: object = {}, id = 'init-1') => line({ request_id: id, type: 'control_request', request: { subtype: 'initialize', ...request } });
const user = (text: string) => line({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text }] }, parent_tool_use_id: null });
const count = (text: string, part: string) => text.split(part).length - 1;

describe('the SDK’s command line and stdin', () => {
  it('takes every flag of the SDK’s table; says once what it cannot honour; initialize’s launch fields are applied and confirmed', async () => {
    const extra = t.project.path('extra');
    const plugin = t.project.path('plugin');
    mkdirSync(extra);
    mkdirSync(`${plugin}/.claude-plugin`, { recursive: true });
    t.api.script(reply().text('one'), reply().text('two'));
    const session = randomUUID();
    const argv = [
      ...SDK_ARGV,
      '--model=claude-sonnet-4-5',
      '--fallback-model=claude-haiku-4-5',
      '--max-turns=3',
      '--max-budget-usd=0.5',
      '--max-thinking-tokens=2048',
      '--effort=low',
      '--permission-mode=acceptEdits',
      '--allow-dangerously-skip-permissions',
      '--permission-prompt-tool=stdio',
      '--allowedTools=Read,Bash(git status:*)',
      '--disallowedTools=WebFetch',
      '--tools=default',
      `--add-dir=${extra}`,
      `--session-id=${session}`,
      '--include-partial-messages',
      '--include-hook-events',
      '--setting-sources=project',
      '--settings',
      '{"permissions":{"allow":["Read"]}}',
      '--mcp-config',
      '{"mcpServers":{}}',
      '--strict-mcp-config',
      '--betas=context-1m-2025-08-07',
      `--plugin-dir=${plugin}`,
    ];
    const stdin = [
      initialize({ systemPrompt: [''], settings: { permissions: { deny: ['Grep'] } }, disallowedTools: ['Glob'], title: 'flags run' }),
      user('first'),
      user('second'),
    ].join('');
    const r = await t.run(argv, { stdin });
    expectExit(r, 0);
    // stdout holds JSON lines only.
    for (const l of r.stdout.trim().split('\n')) expect(() => JSON.parse(l)).not.toThrow();
    const lines = r.lines<any>();
    const answer = lines.find((l) => l.type === 'control_response')?.response;
    expect(answer).toMatchObject({ subtype: 'success', request_id: 'init-1' });
    expect(answer.response).toMatchObject({ settings_applied: true, disallowed_tools_applied: true, current_permission_mode: 'acceptEdits' });
    expect(lines.filter((l) => l.type === 'result').map((l) => l.result)).toEqual(['one', 'two']);
    expect(lines.find((l) => l.subtype === 'init').session_id).toBe(session);
    expect(lines.some((l) => l.type === 'stream_event')).toBe(true);
    const [first, second] = t.api.messageRequests().map((q) => q.body as Record<string, any>);
    expect(first!.model).toBe('claude-sonnet-4-5');
    expect(first!.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const tools = first!.tools.map((x: { name: string }) => x.name);
    expect(tools).toContain('Read');
    for (const gone of ['WebFetch', 'Grep', 'Glob']) expect(tools).not.toContain(gone);
    expect(JSON.stringify(second!.messages)).toContain('first');
    // --betas go out as anthropic-beta on every request, beside wicket's own; nothing is said of them.
    for (const q of t.api.messageRequests()) expect(String(q.headers['anthropic-beta']).split(',')).toContain('context-1m-2025-08-07');
    expect(count(r.stderr, '--betas')).toBe(0);
    // can_use_tool is answered: the flag is honoured, so nothing is said of it.
    expect(count(r.stderr, '--permission-prompt-tool stdio')).toBe(0);
  });

  it('--thinking=disabled and --tools=Read,Grep, then --thinking=adaptive with --tools= and --permission-mode=auto (said, default used)', async () => {
    t.api.script(reply().text('one'), reply().text('two'));
    const a = await t.run([...SDK_ARGV, '--thinking=disabled', '--tools=Read,Grep', '--setting-sources='], { stdin: initialize() + user('hi') });
    expectExit(a, 0);
    const b = await t.run([...SDK_ARGV, '--thinking=adaptive', '--tools=', '--permission-mode=auto', '--no-session-persistence'], {
      stdin: initialize() + user('hi'),
    });
    expectExit(b, 0);
    const [one, two] = t.api.messageRequests().map((q) => q.body as Record<string, any>);
    expect(one!.thinking).toBeUndefined();
    expect(one!.tools.map((x: { name: string }) => x.name).sort()).toEqual(['Grep', 'Read']);
    expect(two!.thinking).toMatchObject({ type: 'enabled' });
    expect(two!.tools ?? []).toEqual([]);
    expect(b.stderr).toContain('--permission-mode auto is not available in wicket: default is used');
    expect(b.lines<any>().find((l) => l.subtype === 'init').permissionMode).toBe('default');
  });

  it('the end of input ends the run: a turn already read still runs, and the exit code follows the last result', async () => {
    t.api.script(reply().text('fine'), reply().error(400, { message: 'bad request' }));
    const r = await t.run(SDK_ARGV, { stdin: initialize() + user('one') + user('two'), env: { CLAUDE_CODE_SDK_READS_SESSION_STATE: '1' } });
    expect(r.code).toBe(1);
    // running → idle around each turn (the SDK asked for them).
    const flow = r.lines<any>().flatMap((l) => (l.subtype === 'session_state_changed' ? [l.state] : l.type === 'result' ? ['result'] : []));
    expect(flow).toEqual(['running', 'result', 'idle', 'running', 'result', 'idle']);
    const results = r.lines<any>().filter((l) => l.type === 'result');
    expect(results.map((x) => [x.subtype, x.is_error])).toEqual([
      ['success', false],
      ['success', true],
    ]);
    // Without initialize (a plain stream-json script), wicket's own prompt; a bad line is said, and skipped.
    t.api.script(reply().text('plain'));
    const plain = await t.run(SDK_ARGV, { stdin: `not json\n${user('hello')}` });
    expectExit(plain, 0);
    expect(plain.stderr).toContain('ignoring a stdin line that is not JSON');
    expect(JSON.stringify(t.api.messageRequests().at(-1)!.body.system)).toContain('You are wicket');
  });

  it('SIGTERM while waiting for the next line ends the session at once (143)', async () => {
    const child = spawn(process.execPath, [BIN_PATH, ...SDK_ARGV], { cwd: t.project.dir, env: cliEnv({ home: t.project.home, baseUrl: t.api.url }) });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.write(initialize());
    await waitUntil(() => out.includes('"control_response"'), 15_000, 'the initialize answer');
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
  });
});
