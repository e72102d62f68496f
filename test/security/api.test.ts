/**
 * The API connection never hangs: a server that goes silent anywhere (before its headers, after
 * them, after `message_start`, in the middle of a tool call's input, sending only pings or comment
 * lines, on a preconnected socket, behind a proxy whose CONNECT never answers) is abandoned after
 * the idle limit (WICKET_API_IDLE_TIMEOUT_MS) or the whole-request limit (API_TIMEOUT_MS) and
 * retried like a dropped connection; the last try fails with a clear sentence and exit 1. Through
 * the built binary against the fake Messages API, with limits of a few hundred milliseconds.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });

const IDLE_MS = 250;
/** Small limits and quick retries: each case takes well under a second of waiting. */
const FAST = { WICKET_API_IDLE_TIMEOUT_MS: String(IDLE_MS), WICKET_RETRY_BASE_DELAY_MS: '1', WICKET_RETRY_MAX_DELAY_MS: '5', WICKET_MAX_RETRIES: '2' };
const run = (args: string[], env: Record<string, string | undefined> = {}) => t.run(args, { env: { ...FAST, ...env } });
const IDLE_BEFORE_HEADERS = /the API sent nothing for 250 ms after the request was sent, before its response headers \(WICKET_API_IDLE_TIMEOUT_MS\)/;
const IDLE_MID_ANSWER = /the API sent nothing for 250 ms in the middle of its answer \(WICKET_API_IDLE_TIMEOUT_MS\)/;
const messageCount = () => t.api.messageRequests().length;

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function listen(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a silent API is abandoned and retried, then the answer is used', () => {
  it('silent before the status line and headers', async () => {
    t.api.script(reply().hangBeforeHeaders(), reply().text('answered'));
    const r = await run(['-p', 'hi']);
    expectExit(r, 0);
    expect(r.stdout).toBe('answered\n');
    expect(r.stderr).toMatch(IDLE_BEFORE_HEADERS);
    expect(r.stderr).toMatch(/retrying in \d+ ms \(1\/2\)/);
    expect(messageCount()).toBe(2);
  });

  it('silent after the headers', async () => {
    t.api.script(reply().hangAfterHeaders(), reply().text('answered'));
    const r = await run(['-p', 'hi']);
    expectExit(r, 0);
    expect(r.stdout).toBe('answered\n');
    expect(r.stderr).toMatch(IDLE_MID_ANSWER);
  });

  it('silent after message_start', async () => {
    t.api.script(reply().hang(), reply().text('answered'));
    const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    const retry = r.lines<any>().find((l) => l.subtype === 'api_retry');
    expect(retry).toMatchObject({ type: 'system', attempt: 1, max_retries: 2, error_status: null, error: 'unknown' });
    expect(retry.error_message).toMatch(IDLE_MID_ANSWER);
    expect(r.lines<any>().at(-1)).toMatchObject({ type: 'result', is_error: false, result: 'answered' });
  });

  it('silent in the middle of its text: the retried answer is shown once, not twice', async () => {
    t.api.script(reply().text('Hello, ').hang(), reply().text('Hello, world'));
    const r = await run(['-p', 'hi', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>().result).toBe('Hello, world');
  });

  it('silent in the middle of the first tool call’s input: the half call never runs, the request is retried', async () => {
    t.api.script(reply().text('Running it.').toolUse('Bash', { command: 'touch half-call-ran' }, { stallMidInput: true }), reply().text('answered'));
    const r = await run(['-p', 'go', '--allowedTools', 'Bash']);
    expectExit(r, 0);
    expect(r.stdout).toBe('answered\n');
    expect(t.project.exists('half-call-ran')).toBe(false);
    expect(t.api.messageRequests()[1]!.body.messages).toHaveLength(1); // the retry carries no half message
  });

  it('silent in the middle of a second tool call: the complete call runs once and gets its one result, the half one never runs', async () => {
    t.api.script(
      reply()
        .toolUse('Bash', { command: 'echo one >> log.txt' }, { id: 'toolu_whole' })
        .toolUse('Bash', { command: 'touch half-call-ran' }, { id: 'toolu_half', stallMidInput: true }),
      reply().text('answered'),
    );
    const r = await run(['-p', 'go', '--allowedTools', 'Bash', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>().result).toBe('answered');
    expect(await t.project.read('log.txt')).toBe('one\n');
    expect(t.project.exists('half-call-ran')).toBe(false);
    const next = t.api.messageRequests()[1]!.body;
    const uses = next.messages!.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_use') : []));
    expect(uses.map((b: any) => b.id)).toEqual(['toolu_whole']);
    expect(toolResultIn(next, 'toolu_whole')).toBeDefined();
    expect(JSON.stringify(next)).not.toContain('toolu_half');
  });

  it('comment lines are not events: a server that sends only those is silent', async () => {
    t.api.script(reply().trickle('comment', 40), reply().text('answered'));
    const r = await run(['-p', 'hi']);
    expectExit(r, 0);
    expect(r.stdout).toBe('answered\n');
    expect(r.stderr).toMatch(IDLE_MID_ANSWER);
  });

  it('pings keep a quiet stream alive within API_TIMEOUT_MS: no retry', async () => {
    t.api.script(
      reply()
        .trickle('ping', 40, { forMs: IDLE_MS * 3 })
        .text('after the pings'),
    );
    const r = await run(['-p', 'hi']);
    expectExit(r, 0);
    expect(r.stdout).toBe('after the pings\n');
    expect(r.stderr).toBe('');
    expect(messageCount()).toBe(1);
  });
});

describe('every try fails: a clear sentence and exit 1, bounded in time', () => {
  const silentThrice = () => t.api.script(reply().hangAfterHeaders(), reply().hangAfterHeaders(), reply().hangAfterHeaders());

  it('text output: the retries and the last error on stderr, nothing on stdout', async () => {
    silentThrice();
    const started = Date.now();
    const r = await run(['-p', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('wicket: the API sent nothing for 250 ms in the middle of its answer (WICKET_API_IDLE_TIMEOUT_MS); tried 3 times');
    expect(messageCount()).toBe(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('json output: is_error with the sentence', async () => {
    silentThrice();
    const r = await run(['-p', 'hi', '--output-format', 'json']);
    expect(r.code).toBe(1);
    const result = r.json<any>();
    expect(result).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true });
    expect(result.errors).toEqual(['the API sent nothing for 250 ms in the middle of its answer (WICKET_API_IDLE_TIMEOUT_MS); tried 3 times']);
  });

  it('stream-json output: one api_retry per retry, then an error result', async () => {
    t.api.script(reply().hangBeforeHeaders(), reply().hangBeforeHeaders(), reply().hangBeforeHeaders());
    const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expect(r.code).toBe(1);
    const retries = r.lines<any>().filter((l) => l.subtype === 'api_retry');
    expect(retries.map((l) => l.attempt)).toEqual([1, 2]);
    for (const l of retries) expect(l.error_message).toMatch(IDLE_BEFORE_HEADERS);
    const result = r.lines<any>().at(-1);
    expect(result).toMatchObject({ type: 'result', is_error: true });
    expect(result.errors[0]).toMatch(/before its response headers \(WICKET_API_IDLE_TIMEOUT_MS\); tried 3 times$/);
  });

  it('a server that sends only pings is bounded by API_TIMEOUT_MS', async () => {
    t.api.script(reply().trickle('ping', 40), reply().trickle('ping', 40));
    const started = Date.now();
    const r = await run(['-p', 'hi'], { API_TIMEOUT_MS: '700', WICKET_MAX_RETRIES: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe("wicket: the API's answer took longer than 700 ms (API_TIMEOUT_MS); tried 2 times");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('an error status whose body never ends is bounded too, and reported with its status', async () => {
    let hits = 0;
    const server = createHttpServer((req, res) => {
      hits++;
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.write('{"type":"error","error":{"type":"api_error",');
    });
    closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
    const port = await listen(server);
    const r = await t.run(['-p', 'hi'], { env: FAST, baseUrl: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^wicket: the API failed after 3 attempts \(500\)/);
    expect(hits).toBe(3);
  });
});

describe('the connection itself', () => {
  it('a preconnected socket that never answers is abandoned; the retry opens a new connection', async () => {
    // The first connection (opened while wicket starts) is held silent; later ones reach the fake API.
    const target = Number(new URL(t.api.url).port);
    const sockets: Socket[] = [];
    let connections = 0;
    const front = createNetServer((socket) => {
      sockets.push(socket);
      if (++connections === 1) return void socket.on('error', () => {});
      const upstream = connect(target, '127.0.0.1');
      sockets.push(upstream);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    closers.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => front.close(resolve));
    });
    const port = await listen(front);
    t.api.script(reply().text('answered'));
    const r = await t.run(['-p', 'hi'], { env: FAST, baseUrl: `http://127.0.0.1:${port}` });
    expectExit(r, 0);
    expect(r.stdout).toBe('answered\n');
    expect(r.stderr).toMatch(IDLE_BEFORE_HEADERS);
    expect(connections).toBe(2);
    expect(messageCount()).toBe(1); // the silent connection never reached the API
  });

  it('a proxy whose CONNECT never answers: each try is abandoned, and the error names the proxy', async () => {
    const seen: string[] = [];
    const sockets: Socket[] = [];
    const proxy = createNetServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
      socket.once('data', (d) => seen.push(String(d).split('\r\n')[0]!));
    });
    closers.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => proxy.close(resolve));
    });
    const port = await listen(proxy);
    const started = Date.now();
    const r = await t.run(['-p', 'hi'], { env: { ...FAST, HTTPS_PROXY: `http://127.0.0.1:${port}` }, baseUrl: 'https://api.example.test' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      `wicket: the API sent nothing for 250 ms while the connection was being made (through the proxy http://127.0.0.1:${port}) (WICKET_API_IDLE_TIMEOUT_MS); tried 3 times`,
    );
    expect(seen).toEqual(Array(3).fill('CONNECT api.example.test:443 HTTP/1.1'));
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('every request of the session has the limits', () => {
  it('a sub-agent’s request', async () => {
    t.api.script(
      reply().toolUse('Agent', { description: 'look', prompt: 'look at a.txt' }, { id: 'toolu_agent' }),
      reply().hangAfterHeaders(),
      reply().text('the sub-agent looked'),
      reply().text('all done'),
    );
    const r = await run(['-p', 'delegate', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>().result).toBe('all done');
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[3]!.body, 'toolu_agent'))).toContain('the sub-agent looked');
    expect(r.stderr).toMatch(IDLE_MID_ANSWER);
  });

  it('the compaction request', async () => {
    t.api.script(
      reply()
        .toolUse('Read', { file_path: t.project.path('a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().hang(),
      reply().text('SUMMARY: a.txt says alpha.'),
      reply().text('answered from the summary'),
    );
    const r = await run(['-p', 'read a.txt', '--output-format', 'json'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '40000' });
    expectExit(r, 0);
    expect(r.json<any>().result).toBe('answered from the summary');
    expect(JSON.stringify(t.api.messageRequests()[3]!.body.messages)).toContain('SUMMARY: a.txt says alpha.');
  });

  it('a prompt hook’s question to the model', async () => {
    await t.project.write(
      '.claude/settings.json',
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Is the work done? $ARGUMENTS' }] }] } }),
    );
    t.api.script(reply().text('All done.'), reply().hangBeforeHeaders(), reply().text('{"ok": true}'));
    const started = Date.now();
    const r = await run(['-p', 'finish', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>().result).toBe('All done.');
    expect(messageCount()).toBe(3); // the hook's question was abandoned once, then answered
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
