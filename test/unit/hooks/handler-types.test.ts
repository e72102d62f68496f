import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHooksConfig } from '../../../src/settings/hooks.js';
import type { HttpHook, PromptHook } from '../../../src/base/hook-config.js';
import { headersOf, runHttpHook } from '../../../src/hooks/run-http.js';
import { parseVerdict, runPromptHook } from '../../../src/hooks/run-prompt.js';

const parse = (hooks: unknown) => parseHooksConfig(hooks, 'projectSettings', '/p/.claude/settings.json', 'settings.json');
const opts = (timeoutMs = 2000) => ({ cwd: '/', env: { TOKEN: 'sekrit', OTHER: 'hidden' }, timeoutMs });

describe('http and prompt handlers: parsing', () => {
  it('reads http handlers (url, headers, allowedEnvVars) and prompt handlers (prompt, model)', () => {
    const { groups, warnings } = parse({
      PostToolUse: [
        {
          matcher: 'Edit',
          hooks: [{ type: 'http', url: 'https://hooks.example/edit', headers: { Authorization: 'Bearer $TOKEN' }, allowedEnvVars: ['TOKEN'], timeout: 5 }],
        },
      ],
      Stop: [{ hooks: [{ type: 'prompt', prompt: 'Are the tests green? $ARGUMENTS', model: 'haiku' }] }],
    });
    expect(warnings).toEqual([]);
    expect(groups.map((g) => g.hooks[0])).toEqual([
      { type: 'http', url: 'https://hooks.example/edit', headers: { Authorization: 'Bearer $TOKEN' }, allowedEnvVars: ['TOKEN'], timeout: 5 },
      { type: 'prompt', prompt: 'Are the tests green? $ARGUMENTS', model: 'haiku' },
    ]);
  });

  it('skips unusable ones with a warning each, and still refuses types it does not run', () => {
    const { groups, warnings } = parse({
      Stop: [
        {
          hooks: [
            { type: 'http', url: 'ftp://x' },
            { type: 'prompt', prompt: '' },
            { type: 'http', url: 'http://ok.example', headers: { A: 1 }, allowedEnvVars: 'TOKEN' },
            { type: 'webhook', url: 'http://x' },
          ],
        },
      ],
    });
    expect(groups[0]!.hooks).toEqual([{ type: 'http', url: 'http://ok.example' }]);
    expect(warnings).toEqual([
      'settings.json: hooks.Stop[0].hooks[0]: "url" must be an http:// or https:// address; skipped',
      'settings.json: hooks.Stop[0].hooks[1]: "prompt" must be a non-empty string; skipped',
      'settings.json: hooks.Stop[0].hooks[2].headers must be an object of strings; ignored',
      'settings.json: hooks.Stop[0].hooks[2].allowedEnvVars must be an array of variable names; ignored',
      'settings.json: hooks.Stop[0].hooks[3]: hooks of type "webhook" are not supported by wicket (only "command", "http", "prompt", "agent" and "mcp_tool"); skipped',
    ]);
  });
});

describe('http handlers: running', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function serve(handler: (body: string, headers: Record<string, unknown>) => [number, string]): Promise<string> {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const [status, text] = handler(body, req.headers);
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }

  it('POSTs the event JSON; a 2xx body is read as stdout; headers name only allowed variables', async () => {
    const seen: Array<[string, Record<string, unknown>]> = [];
    const url = await serve((body, headers) => (seen.push([body, headers]), [200, '{"decision":"block","reason":"no"}']));
    const hook: HttpHook = { type: 'http', url, headers: { Authorization: 'Bearer ${TOKEN}', 'X-Other': '[$OTHER]' }, allowedEnvVars: ['TOKEN'] };
    const r = await runHttpHook(hook, '{"hook_event_name":"Stop"}', opts());
    expect(r).toMatchObject({ exitCode: 0, stdout: '{"decision":"block","reason":"no"}', timedOut: false, aborted: false });
    expect(seen[0]![0]).toBe('{"hook_event_name":"Stop"}');
    expect(seen[0]![1]).toMatchObject({ authorization: 'Bearer sekrit', 'x-other': '[]', 'content-type': 'application/json' });
  });

  it('another status, a refused connection and a timeout are non-blocking failures', async () => {
    const url = await serve(() => [503, 'down for maintenance']);
    expect(await runHttpHook({ type: 'http', url }, '{}', opts())).toMatchObject({
      exitCode: 1,
      stderr: `POST ${url} answered HTTP 503: down for maintenance`,
    });
    server!.close();
    const closed = `${url.replace('/hook', '')}/gone`; // the port nothing listens on any more
    const refused = await runHttpHook({ type: 'http', url: closed }, '{}', opts());
    expect(refused.spawnError).toBe(`POST ${closed} failed: ECONNREFUSED`);
    server = createServer(() => undefined); // never answers
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const slow = await runHttpHook({ type: 'http', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }, '{}', opts(200));
    expect(slow).toMatchObject({ timedOut: true });
    expect(slow.exitCode).toBeUndefined();
    server.closeAllConnections();
  });

  it('headersOf leaves unlisted variables empty', () => {
    expect(headersOf({ type: 'http', url: 'http://x', headers: { A: '$TOKEN/$OTHER' } }, { TOKEN: 't', OTHER: 'o' })).toEqual({ A: '/' });
  });
});

describe('prompt handlers: running', () => {
  const hook: PromptHook = { type: 'prompt', prompt: 'Did the agent run the tests? Input: $ARGUMENTS', model: 'haiku' };

  it('asks the model with the input in place of $ARGUMENTS; ok:true lets things go on', async () => {
    const asked: Array<[string, { model?: string; system: string }]> = [];
    const r = await runPromptHook(hook, 'Stop', '{"a":1}', async (p, o) => (asked.push([p, o]), '{"ok": true}'), opts());
    expect(r).toMatchObject({ exitCode: 0, stdout: '' });
    expect(asked[0]![0]).toBe('Did the agent run the tests? Input: {"a":1}');
    expect(asked[0]![1]).toMatchObject({ model: 'haiku', system: expect.stringContaining('{"ok": false, "reason": "..."}') });
  });

  it('ok:false blocks Stop with the reason, and ends the turn on other events', async () => {
    const no = async () => 'Here you go:\n```json\n{"ok": false, "reason": "Run npm test first."}\n```';
    expect((await runPromptHook(hook, 'Stop', '{}', no, opts())).stdout).toBe('{"decision":"block","reason":"Run npm test first."}');
    expect((await runPromptHook(hook, 'PreToolUse', '{}', no, opts())).stdout).toBe('{"continue":false,"stopReason":"Run npm test first."}');
  });

  it('appends the input when the prompt has no $ARGUMENTS; bad answers and failures are non-blocking', async () => {
    let asked = '';
    await runPromptHook({ type: 'prompt', prompt: 'Is it safe?' }, 'PreToolUse', '{"tool_name":"Bash"}', async (p) => ((asked = p), '{"ok":true}'), opts());
    expect(asked).toBe('Is it safe?\n\nThe data of this moment (PreToolUse):\n{"tool_name":"Bash"}');
    expect(await runPromptHook(hook, 'Stop', '{}', async () => 'yes', opts())).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('is not {"ok"') });
    expect(await runPromptHook(hook, 'Stop', '{}', async () => Promise.reject(new Error('overloaded')), opts())).toMatchObject({
      spawnError: 'the model did not answer: overloaded',
    });
    expect(await runPromptHook(hook, 'Stop', '{}', undefined, opts())).toMatchObject({ spawnError: 'no model is available to this hook' });
    const hang = (_p: string, o: { signal: AbortSignal }) =>
      new Promise<string>((_r, reject) => o.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    expect(await runPromptHook(hook, 'Stop', '{}', hang, opts(100))).toMatchObject({ timedOut: true });
  });

  it('parseVerdict needs a boolean ok', () => {
    expect(parseVerdict('{"ok": "yes"}')).toBeUndefined();
    expect(parseVerdict('{"ok": false}')).toEqual({ ok: false });
    expect(parseVerdict('no json')).toBeUndefined();
  });
});
