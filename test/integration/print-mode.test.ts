import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { BIN_PATH, cliEnv, expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { makeLocalhostCert, startTlsFront } from '../support/tls-front.js';

let server: FakeAnthropic;
let project: TmpProject;
const fastRetry = { WICKET_RETRY_BASE_DELAY_MS: '5', WICKET_MAX_RETRIES: '3' };

beforeEach(async () => {
  server = await startFakeAnthropic();
  project = await makeTmpProject({ files: { 'a.txt': 'alpha\nbeta\n' } });
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const run = (args: string[], extra: { env?: Record<string, string>; stdin?: string } = {}) =>
  runCli(args, { cwd: project.dir, home: project.home, baseUrl: server.url, env: { ...fastRetry, ...extra.env }, stdin: extra.stdin });

describe('the entry', () => {
  it('answers --version and --help itself, with the same help the full parser gives', async () => {
    const version = await run(['--version']);
    expectExit(version, 0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\S* \(wicket\)\n$/);
    const quick = await run(['--help']);
    expectExit(quick, 0);
    expect(quick.stdout).toMatch(/^Usage: wicket \[options\] \[prompt\]/);
    expect(quick.stdout).toContain('--output-format <format>');
    const full = await run(['--help', '--verbose']); // two arguments: the full parser answers
    expectExit(full, 0);
    expect(quick.stdout).toBe(full.stdout);
    expect(server.requests).toHaveLength(0);
  });
});

describe('print mode', () => {
  it('attaches @-mentioned files as read, so Edit can follow at once; a deny rule keeps a file out', async () => {
    await project.write('secret.env', 'TOKEN=abc\n');
    await project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Read(./secret.env)'] } }));
    server.script(reply().toolUse('Edit', { file_path: `${project.dir}/a.txt`, old_string: 'beta', new_string: 'gamma' }), reply().text('edited'));
    const r = await run(['-p', 'change @a.txt but not @secret.env or @Component', '--permission-mode', 'acceptEdits']);
    expectExit(r, 0);
    const content = JSON.stringify((server.requests[0]!.body as any).messages[0].content);
    expect(content).toContain('Contents of @a.txt');
    expect(content).toMatch(/1\\talpha/);
    expect(content).toContain('@secret.env was not attached: denied by the rule Read(./secret.env)');
    expect(content).not.toContain('TOKEN=abc');
    expect(content).not.toContain('Contents of @Component');
    const toolResult = JSON.stringify((server.requests[1]!.body as any).messages.at(-1).content);
    expect(toolResult).not.toContain('is_error":true');
    expect(await project.read('a.txt')).toBe('alpha\ngamma\n');
    server.assertNoViolations();
  });

  it('ignores an API_TIMEOUT_MS that is not a number instead of failing every request', async () => {
    server.script(reply().text('fine'));
    const r = await run(['-p', 'hi'], { env: { API_TIMEOUT_MS: 'soon' } });
    expectExit(r, 0);
    expect(r.stdout).toBe('fine\n');
  });

  it('stops quietly with 141 when the reader of its output goes away, without running the remaining turns', async () => {
    for (let i = 0; i < 6; i++)
      server.script(
        reply()
          .delay(i === 0 ? 0 : 150)
          .toolUse('Read', { file_path: `${project.dir}/a.txt` }),
      );
    server.script(reply().text('all read'));
    const { spawnCli } = await import('../support/run-cli.js');
    const cli = spawnCli(['-p', 'go', '--allowedTools', 'Read', '--output-format', 'stream-json', '--verbose'], {
      cwd: project.dir,
      home: project.home,
      baseUrl: server.url,
    });
    await cli.waitFor('"subtype":"init"');
    cli.child.stdout.destroy(); // like `| head -1`
    const r = await cli.result;
    expect(r.code).toBe(141);
    expect(r.stderr).toBe('');
    expect(server.messageRequests().length).toBeLessThan(7);
    server.assertNoViolations();
  });

  it('runs a custom command named in the prompt, with piped input after it', async () => {
    await project.write('.claude/commands/review.md', '---\ndescription: Review\n---\nReview $ARGUMENTS carefully.');
    server.script(reply().text('reviewed'));
    const r = await run(['-p', '/review src/a.ts'], { stdin: 'the diff' });
    expectExit(r, 0);
    expect(r.stdout).toBe('reviewed\n');
    const first = (server.requests[0]!.body as any).messages[0].content[0].text;
    expect(first).toBe('Review src/a.ts carefully.\n\nthe diff');
  });

  it('tells the model the git branch and status, gathered while the code loads', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project.dir, stdio: 'ignore' });
    git('init', '-q', '-b', 'feature-x');
    server.script(reply().text('ok'));
    const r = await run(['-p', 'hi']);
    expectExit(r, 0);
    const system = JSON.stringify(server.requests[0]!.body.system);
    expect(system).toContain('Is a git repository: yes');
    expect(system).toContain('Git branch: feature-x');
    expect(system).toContain('?? a.txt');
  });

  it('runs many tool turns on one run without piling up abort listeners', async () => {
    for (let i = 0; i < 14; i++) server.script(reply().toolUse('Read', { file_path: `${project.dir}/a.txt` }));
    server.script(reply().text('read it often'));
    const r = await run(['-p', 'read a lot', '--allowedTools', 'Read']);
    expectExit(r, 0);
    expect(r.stdout).toBe('read it often\n');
    expect(r.stderr).not.toMatch(/MaxListenersExceeded|Warning/);
    server.assertNoViolations();
  });

  it('prints the final text in text format', async () => {
    server.script(reply().text('Hello ').text('world'));
    const r = await run(['-p', 'hi']);
    expectExit(r, 0);
    expect(r.stdout).toBe('Hello world\n');
    server.assertNoViolations();
    const body = server.requests[0]!.body as any;
    expect(body.messages[0].content[0].text).toBe('hi');
    expect(body.stream).toBe(true);
  });

  it('emits one result object in json format, with Claude Code field names', async () => {
    server.script(reply().text('ok').usage({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 2 }));
    const r = await run(['-p', 'hi', '--output-format', 'json']);
    expectExit(r, 0);
    const res = r.json<any>();
    expect(res).toMatchObject({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, result: 'ok', permission_denials: [] });
    expect(res.usage).toEqual({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 2 });
    expect(typeof res.session_id).toBe('string');
    expect(res.total_cost_usd).toBeGreaterThan(0);
    expect(res.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('the json result tells, as Claude Code’s does, the time to the first word, refusals, sub-agents and fast mode', async () => {
    server.script(
      reply().toolUse('Agent', { description: 'look', prompt: 'Look around', subagent_type: 'general-purpose' }),
      reply().text('sub-agent report'),
      reply().text('will not').stopReason('refusal'),
    );
    const r = await run(['-p', 'go', '--output-format', 'json', '--allowedTools', 'Agent']);
    expectExit(r, 0);
    const res = r.json<any>();
    expect(res).toMatchObject({ fast_mode_state: 'off', safety_stops: 1, stop_reason: 'refusal' });
    expect(res.ttft_ms).toEqual(expect.any(Number));
    expect(res.ttft_ms).toBeLessThanOrEqual(res.duration_ms);
    expect(res.subagent_stats).toEqual({
      spawned: 1,
      requested: { background: 0, foreground: 0, unset: 1 },
      started_in_background: 0,
      max_depth: 1,
      spawned_by_subagents: 0,
      completed: 1,
      failed: 0,
      killed: { parent: 0, user: 0, system: 0 },
      refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 },
      by_type: { 'general-purpose': 1 },
    });
  });

  it('json output with --verbose is every message stream-json would write, as one array', async () => {
    server.script(reply().toolUse('Nope', { x: 1 }), reply().text('done'));
    const r = await run(['-p', 'go', '--output-format', 'json', '--verbose']);
    expectExit(r, 0);
    const all = r.json<any[]>();
    expect(all.map((l) => (l.type === 'system' ? `system/${l.subtype}` : l.type))).toEqual(['system/init', 'assistant', 'user', 'assistant', 'result']);
    expect(all.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'done' });
  });

  it('streams init, assistant, user and result lines in stream-json', async () => {
    server.script(reply().toolUse('Nope', { x: 1 }), reply().text('done'));
    const r = await run(['-p', 'go', '--output-format', 'stream-json', '--verbose', '--include-gate-traces']);
    expectExit(r, 0);
    const lines = r.lines<any>();
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init', permissionMode: 'default' });
    expect(lines[0].tools).toEqual(expect.any(Array));
    const types = lines.map((l) => (l.type === 'system' ? `system/${l.subtype}` : l.type));
    expect(types).toEqual(['system/init', 'assistant', 'system/gate_trace', 'user', 'assistant', 'result']);
    const user = lines.find((l) => l.type === 'user');
    expect(user.message.content[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(user.message.content[0].content).toContain('No such tool: Nope');
    server.assertNoViolations();
  });

  it('stream-json sends one assistant line per content block, as the SDK mode does, and a result with the same fields', async () => {
    server.script(
      reply()
        .text('Reading.')
        .toolUse('Read', { file_path: `${project.dir}/a.txt` }, { id: 'toolu_p1' })
        .toolUse('Nope', {}, { id: 'toolu_p2' }),
      reply().text('done'),
    );
    const r = await run(['-p', 'go', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    const lines = r.lines<any>();
    const assistants = lines.filter((l) => l.type === 'assistant');
    expect(assistants.map((l) => l.message.content.map((b: any) => b.type).join())).toEqual(['text', 'tool_use', 'tool_use', 'text']);
    expect(new Set(assistants.slice(0, 3).map((l) => l.message.id)).size).toBe(1);
    expect(assistants.every((l) => l.message.stop_reason === null)).toBe(true);
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'done', stop_reason: 'end_turn', api_error_status: null, result_index: 0 });
    expect(result.queued_turn_count).toBe(0);
    expect(Object.keys(result.model_usage_since_last_result)).toEqual(Object.keys(result.modelUsage));
  });

  it('stream-json ends an API error as Claude Code does: success subtype, is_error, the API Error text', async () => {
    server.script(reply().error(400, { message: 'max_tokens: Field required' }));
    const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expect(r.code).toBe(1);
    const lines = r.lines<any>();
    expect(lines.find((l) => l.type === 'assistant')).toMatchObject({ is_api_error_message: true, api_error_status: 400 });
    expect(lines.at(-1)).toMatchObject({
      subtype: 'success',
      is_error: true,
      result: 'API Error: 400 max_tokens: Field required',
      api_error_status: 400,
      stop_reason: 'stop_sequence',
    });
  });

  it('includes raw stream events with --include-partial-messages', async () => {
    server.script(reply().text('a').text('b'));
    const r = await run(['-p', 'go', '--output-format', 'stream-json', '--include-partial-messages']);
    const events = r
      .lines<any>()
      .filter((l) => l.type === 'stream_event')
      .map((l) => l.event.type);
    expect(events[0]).toBe('message_start');
    expect(events).toContain('content_block_delta');
    expect(events[events.length - 1]).toBe('message_stop');
  });

  it('retries 529, 429 and 500 and then succeeds', async () => {
    server.script(reply().error(529), reply().error(429, { retryAfter: 0 }), reply().error(500), reply().text('finally'));
    const r = await run(['-p', 'hi', '--output-format', 'stream-json']);
    expectExit(r, 0);
    const retries = r.lines<any>().filter((l) => l.subtype === 'api_retry');
    expect(retries.map((x) => x.error_status)).toEqual([529, 429, 500]);
    // The Agent SDK's error kinds, not the status line.
    expect(retries.map((x) => x.error)).toEqual(['overloaded', 'rate_limit', 'server_error']);
    expect(r.lines<any>().at(-1).result).toBe('finally');
  });

  it('does not show text twice when a stream drops and is retried', async () => {
    server.script(reply().text('Hello ').text('partial').dropConnection(), reply().text('Hello ').text('partial and whole'));
    const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--include-partial-messages']);
    expectExit(r, 0);
    expect(r.lines<any>().at(-1).result).toBe('Hello partial and whole');
  });

  it('reports a 401 in one sentence, without retrying', async () => {
    server.script(reply().error(401, { type: 'authentication_error', message: 'invalid x-api-key' }));
    const r = await run(['-p', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('authentication failed (401)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(server.messageRequests().length).toBe(1);
  });

  it('says what to set when there is no API key', async () => {
    const r = await run(['-p', 'hi'], { env: { ANTHROPIC_API_KEY: '' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no API key: set ANTHROPIC_API_KEY');
  });

  it('gives a malformed tool input an input error and goes on', async () => {
    server.script(reply().toolUse('Read', { file_path: 42, bogus: true }), reply().text('ok'));
    const r = await run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    const second = server.requests[1]!.body as any;
    const result = second.messages[2].content[0];
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('file_path: expected string, got number');
    expect(result.content).toContain('unexpected field bogus');
    server.assertNoViolations();
  });

  it('stops at --max-turns with error_max_turns and exit 1', async () => {
    server.script(reply().toolUse('Nope', {}), reply().toolUse('Nope', {}), reply().text('never'));
    const r = await run(['-p', 'go', '--output-format', 'json', '--max-turns', '1']);
    expect(r.code).toBe(1);
    expect(r.json<any>()).toMatchObject({ subtype: 'error_max_turns', is_error: true });
  });

  it('talks to the API over one connection for every turn of a run', async () => {
    writeFileSync(path.join(project.dir, 'a.txt'), 'a\n');
    server.script(
      reply().toolUse('Read', { file_path: path.join(project.dir, 'a.txt') }),
      reply().toolUse('Read', { file_path: path.join(project.dir, 'a.txt') }),
      reply().text('done'),
    );
    let connections = 0;
    const target = new URL(server.url);
    const proxy = createServer((client) => {
      connections += 1;
      const upstream = connect(Number(target.port), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const r = await runCli(['-p', 'go', '--allowedTools', 'Read'], {
        cwd: project.dir,
        home: project.home,
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      });
      expectExit(r, 0);
      expect(server.messageRequests()).toHaveLength(3);
      expect(connections).toBe(1);
    } finally {
      proxy.close();
    }
  });

  it('reaches an https API through HTTPS_PROXY with a CONNECT tunnel, and goes direct for NO_PROXY hosts', async () => {
    // A TLS front for the fake server, with a certificate the child trusts through NODE_EXTRA_CA_CERTS.
    const { cert, key } = makeLocalhostCert(path.join(project.home, 'certs'));
    const front = await startTlsFront(server.url, { cert, key });
    const tunnels: string[] = [];
    const proxy = createHttpServer();
    proxy.on('connect', (req, client, head) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host === 'localhost' ? '127.0.0.1' : host!, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const frontPort = front.port;
      const env = { HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, NODE_EXTRA_CA_CERTS: cert };
      server.script(reply().toolUse('Read', { file_path: path.join(project.dir, 'a.txt') }), reply().text('through the tunnel'), reply().text('direct'));
      const viaProxy = await runCli(['-p', 'go', '--allowedTools', 'Read'], {
        cwd: project.dir,
        home: project.home,
        baseUrl: `https://localhost:${frontPort}`,
        env,
      });
      expectExit(viaProxy, 0);
      expect(viaProxy.stdout).toBe('through the tunnel\n');
      expect(tunnels).toEqual([`localhost:${frontPort}`]); // one tunnel, kept alive for both requests
      const direct = await runCli(['-p', 'go'], {
        cwd: project.dir,
        home: project.home,
        baseUrl: `https://localhost:${frontPort}`,
        env: { ...env, NO_PROXY: 'localhost' },
      });
      expectExit(direct, 0);
      expect(direct.stdout).toBe('direct\n');
      expect(tunnels).toHaveLength(1);
    } finally {
      front.close();
      proxy.close();
    }
  });

  it('appends piped stdin to the prompt', async () => {
    server.script(reply().text('ok'));
    const r = await run(['-p', 'summarize this'], { stdin: 'piped text' });
    expectExit(r, 0);
    const body = server.requests[0]!.body as any;
    expect(body.messages[0].content[0].text).toBe('summarize this\n\npiped text');
  });

  it('reads stdin that is a file (`< file`) or /dev/null', async () => {
    server.script(reply().text('ok'), reply().text('ok'));
    const file = path.join(project.dir, 'notes.txt');
    writeFileSync(file, 'from a file\n');
    const fromFile = await runCli(['-p', 'summarize this'], { cwd: project.dir, home: project.home, baseUrl: server.url, stdinFile: file });
    expectExit(fromFile, 0);
    expect((server.requests[0]!.body as any).messages[0].content[0].text).toBe('summarize this\n\nfrom a file\n');
    const fromNull = await runCli(['-p', 'just this'], { cwd: project.dir, home: project.home, baseUrl: server.url, stdinFile: '/dev/null' });
    expectExit(fromNull, 0);
    expect((server.requests[1]!.body as any).messages[0].content[0].text).toBe('just this');
  });

  it('reads stdin from a shell pipe, whether its writer is done at once or still writing', async () => {
    server.script(reply().text('ok'), reply().text('ok'));
    const env = cliEnv({ home: project.home, baseUrl: server.url });
    const shell = (cmd: string) =>
      new Promise<{ error: Error | null; stderr: string }>((resolve) =>
        execFile('bash', ['-c', cmd], { cwd: project.dir, env }, (error, _out, stderr) => resolve({ error, stderr })),
      );
    const wicket = `"${process.execPath}" "${BIN_PATH}"`;
    const done = await shell(`printf 'all at once' | ${wicket} -p first`);
    expect(done.error, done.stderr).toBeNull();
    const slow = await shell(`{ printf 'early '; sleep 0.3; printf 'late'; } | ${wicket} -p second`);
    expect(slow.error, slow.stderr).toBeNull();
    const texts = server.messageRequests().map((r) => (r.body as any).messages[0].content[0].text);
    expect(texts).toEqual(['first\n\nall at once', 'second\n\nearly late']);
  });

  it('reads user messages as JSON lines with --input-format stream-json', async () => {
    server.script(reply().text('one'), reply().text('two'));
    const stdin = `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'first' } })}\n${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'second' }] } })}\n`;
    const r = await run(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'], { stdin });
    expectExit(r, 0);
    const results = r.lines<any>().filter((l) => l.type === 'result');
    expect(results.map((x) => x.result)).toEqual(['one', 'two']);
    server.assertNoViolations();
  });

  it('rejects a bad flag value with exit 2 and a clear message', async () => {
    const r = await run(['-p', 'x', '--permission-mode', 'yolo']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--permission-mode must be one of');
  });

  it('sends prompt-cache breakpoints on the system prompt, tools and latest turn', async () => {
    server.script(reply().text('ok'));
    await run(['-p', 'hi']);
    const body = server.requests[0]!.body as any;
    expect(body.system.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    if (body.tools?.length) expect(body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: 'ephemeral' });
  });
});

describe('print mode interruption', () => {
  it('exits 130 on SIGINT while the model is answering', async () => {
    const { spawnCli } = await import('../support/run-cli.js');
    server.script(reply().text('thinking...').hang());
    const p = spawnCli(['-p', 'go', '--output-format', 'json'], { cwd: project.dir, home: project.home, baseUrl: server.url });
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (server.requests.length) {
          clearInterval(t);
          resolve();
        }
      }, 20);
    });
    await new Promise((r) => setTimeout(r, 150));
    p.child.kill('SIGINT');
    const r = await p.result;
    expect(r.code).toBe(130);
    expect(r.json<any>()).toMatchObject({ type: 'result', is_error: true, subtype: 'error_during_execution' });
  });
});

describe('sessions', () => {
  it('writes the transcript with gate traces, and --continue brings the conversation back', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const path = await import('node:path');
    server.script(reply().toolUse('Nope', {}), reply().text('first answer'));
    expectExit(await run(['-p', 'one']), 0);
    const dir = path.join(project.home, '.claude', 'projects');
    const [slug] = readdirSync(dir);
    const [file] = readdirSync(path.join(dir, slug!));
    const entries = readFileSync(path.join(dir, slug!, file!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const trace = entries.find((e) => e.type === 'wicket-gate-trace');
    expect(trace).toMatchObject({ toolName: 'Nope', isError: true });
    expect(trace.trace[0]).toMatchObject({ gate: 'find', verdict: 'refused' });
    server.script(reply().text('second answer'));
    expectExit(await run(['-p', 'two', '--continue']), 0);
    const body = server.requests.at(-1)!.body as any;
    expect(body.messages.length).toBe(5);
    expect(body.messages[0].content[0].text).toBe('one');
    expect(body.messages[4].content[0].text).toBe('two');
    server.assertNoViolations();
  });

  it('--continue goes on in the same session, run after run; --fork-session starts a new one holding the history', async () => {
    const { readdirSync } = await import('node:fs');
    const path = await import('node:path');
    server.script(reply().text('a1'), reply().text('a2'), reply().text('a3'), reply().text('a4'), reply().text('a5'));
    const ids: string[] = [];
    for (const [prompt, extra] of [
      ['one', []],
      ['two', ['--continue']],
      ['three', ['--continue']],
    ] as const) {
      const r = await run(['-p', prompt, ...extra, '--output-format', 'json']);
      expectExit(r, 0);
      ids.push(r.json<{ session_id: string }>().session_id);
    }
    expect(new Set(ids).size).toBe(1); // one session, one file
    const texts = (server.requests.at(-1)!.body as any).messages.map((m: any) => m.content[0].text);
    expect(texts).toEqual(['one', 'a1', 'two', 'a2', 'three']);
    const forked = await run(['-p', 'four', '--resume', ids[0]!, '--fork-session', '--output-format', 'json']);
    expectExit(forked, 0);
    const forkId = forked.json<{ session_id: string }>().session_id;
    expect(forkId).not.toBe(ids[0]);
    const again = await run(['-p', 'five', '--resume', forkId, '--output-format', 'json']);
    expectExit(again, 0);
    expect((server.requests.at(-1)!.body as any).messages.map((m: any) => m.content[0].text)).toEqual([
      'one',
      'a1',
      'two',
      'a2',
      'three',
      'a3',
      'four',
      'a4',
      'five',
    ]);
    const dir = path.join(project.home, '.claude', 'projects');
    expect(
      readdirSync(path.join(dir, readdirSync(dir)[0]!))
        .filter((f) => f.endsWith('.jsonl'))
        .sort(),
    ).toEqual([`${ids[0]}.jsonl`, `${forkId}.jsonl`].sort());
  });
});

describe('tools through the gates, end to end', () => {
  it('runs parallel reads, refuses an unapproved edit in print mode, and answers in the model’s order', async () => {
    await project.write('b.txt', 'bravo\n');
    server.script(
      reply()
        .toolUse('Read', { file_path: 'a.txt' })
        .toolUse('Read', { file_path: 'b.txt' })
        .toolUse('Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }),
      reply().text('could not edit'),
    );
    const r = await run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    const results = (server.requests[1]!.body as any).messages[2].content;
    expect(results.map((b: any) => b.tool_use_id)).toEqual(
      (server.requests[1]!.body as any).messages[1].content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id),
    );
    expect(JSON.stringify(results[0].content)).toContain('alpha');
    expect(JSON.stringify(results[1].content)).toContain('bravo');
    expect(results[2].is_error).toBe(true);
    expect(results[2].content).toContain('this call needs permission and print mode has no one to ask');
    expect(results[2].content).toContain('--allowedTools');
    const res = r.json<any>();
    expect(res.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Edit', tool_input: expect.objectContaining({ old_string: 'alpha' }) })]);
    expect(await project.read('a.txt')).toBe('alpha\nbeta\n');
  });

  it('--allowedTools lets the same edit through, and --disallowedTools removes a tool from the list', async () => {
    server.script(
      reply().toolUse('Read', { file_path: 'a.txt' }),
      reply().toolUse('Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }),
      reply().text('ok'),
    );
    const r = await run(['-p', 'go', '--allowedTools', 'Edit', '--disallowedTools', 'WebFetch,Bash']);
    expectExit(r, 0);
    expect(await project.read('a.txt')).toBe('ALPHA\nbeta\n');
    const names = (server.requests[0]!.body as any).tools.map((t: any) => t.name);
    expect(names).toContain('Edit');
    expect(names).not.toContain('WebFetch');
    expect(names).not.toContain('Bash');
  });
});
