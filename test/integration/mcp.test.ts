/** MCP servers in print mode, through the built binary: .mcp.json, --mcp-config, rules, failures. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT, spawnCli } from '../support/run-cli.js';
import { startHttpServer } from '../support/mcp-server.mjs';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const stdio = (...args: string[]) => ({ command: process.execPath, args: [SERVER, ...args] });

const t = useApiAndProject();

const mcpJson = (servers: Record<string, unknown>) => writeFileSync(path.join(t.project.dir, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
const settings = (s: unknown) => {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify(s));
};
const run = (args: string[], env?: Record<string, string | undefined>) => t.run(args, { env, timeoutMs: 30_000 });

/** The tool_result blocks of the last request, by tool_use id. */
function results(): Map<string, { content: unknown; is_error?: boolean }> {
  const out = new Map<string, { content: unknown; is_error?: boolean }>();
  const body = t.api.messageRequests().at(-1)!.body as { messages: Array<{ content: unknown }> };
  for (const m of body.messages) for (const b of Array.isArray(m.content) ? m.content : []) if (b.type === 'tool_result') out.set(b.tool_use_id, b);
  return out;
}
const textOf = (c: unknown) => (typeof c === 'string' ? c : (c as Array<{ type: string; text?: string }>).map((b) => b.text ?? `[${b.type}]`).join('\n'));
const toolsSent = () => (t.api.messageRequests()[0]!.body as { tools: Array<{ name: string; input_schema: any }> }).tools;

describe('MCP servers in print mode', () => {
  it('offers a .mcp.json server’s tools and runs a call an allow rule permits', async () => {
    mcpJson({ test: stdio() });
    settings({ permissions: { allow: ['mcp__test'] } });
    t.api.script(reply().toolUse('mcp__test__echo', { text: 'hi' }, { id: 'toolu_1' }), reply().text('done'));
    const r = await run(['-p', 'use the echo tool']);
    expectExit(r, 0);
    const echo = toolsSent().find((t) => t.name === 'mcp__test__echo')!;
    expect(echo.input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(toolsSent().map((t) => t.name)).toEqual(expect.arrayContaining(['Read', 'mcp__test__add', 'mcp__test__fail']));
    expect(results().get('toolu_1')).toMatchObject({ content: 'echo: hi' });
    expect(r.stdout).toBe('done\n');
  });

  it('asks for permission without a rule: print mode denies it, names the rule, and lists the denial', async () => {
    mcpJson({ test: stdio() });
    t.api.script(reply().toolUse('mcp__test__add', { a: 1, b: 2 }, { id: 'toolu_1' }), reply().text('ok'));
    const r = await run(['-p', 'add', '--output-format', 'json']);
    expectExit(r, 0);
    const res = results().get('toolu_1')!;
    expect(res.is_error).toBe(true);
    expect(textOf(res.content)).toContain('--allowedTools "mcp__test__add"');
    expect(r.json<any>().permission_denials).toEqual([{ tool_name: 'mcp__test__add', tool_use_id: 'toolu_1', tool_input: { a: 1, b: 2 } }]);
  });

  it('checks the input against the server’s schema, listing every bad field, before calling', async () => {
    mcpJson({ test: stdio() });
    t.api.script(reply().toolUse('mcp__test__add', { a: 'one', c: 3 }, { id: 'toolu_1' }), reply().text('ok'));
    const r = await run(['-p', 'add', '--allowedTools', 'mcp__test__add']);
    expectExit(r, 0);
    const res = results().get('toolu_1')!;
    expect(res.is_error).toBe(true);
    expect(textOf(res.content)).toContain('a: expected number, got string');
    expect(textOf(res.content)).toContain('b is required');
  });

  it('passes errors, images and progress-reporting calls through', async () => {
    mcpJson({ test: stdio() });
    t.api.script(
      reply()
        .toolUse('mcp__test__fail', {}, { id: 'toolu_f' })
        .toolUse('mcp__test__image', {}, { id: 'toolu_i' })
        .toolUse('mcp__test__slow', { ms: 10 }, { id: 'toolu_s' }),
      reply().text('ok'),
    );
    const r = await run(['-p', 'go', '--allowedTools', 'mcp__test']);
    expectExit(r, 0);
    const res = results();
    expect(res.get('toolu_f')).toMatchObject({ content: 'it broke', is_error: true });
    expect(res.get('toolu_i')!.content).toEqual([
      { type: 'text', text: 'a red dot:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.any(String) } },
    ]);
    expect(res.get('toolu_s')).toMatchObject({ content: 'waited 10 ms' });
  });

  it('runs stdio servers in the project with CLAUDE_PROJECT_DIR, expanded variables, and answers roots/list', async () => {
    mcpJson({ test: { ...stdio(), env: { MCP_TEST_VAR: '${FROM_ENV:-fallback}-${OTHER}' } } });
    t.api.script(reply().toolUse('mcp__test__where', {}, { id: 'toolu_w' }).toolUse('mcp__test__roots', {}, { id: 'toolu_r' }), reply().text('ok'));
    const r = await run(['-p', 'where', '--allowedTools', 'mcp__test'], { OTHER: 'set' });
    expectExit(r, 0);
    const where = JSON.parse(textOf(results().get('toolu_w')!.content));
    expect(where).toEqual({ cwd: t.project.dir, projectDir: t.project.dir, testVar: 'fallback-set' });
    expect(JSON.parse(textOf(results().get('toolu_r')!.content))).toEqual([{ uri: `file://${t.project.dir}`, name: path.basename(t.project.dir) }]);
  });

  it('cuts output over MAX_MCP_OUTPUT_TOKENS with a note', async () => {
    mcpJson({ test: stdio() });
    t.api.script(reply().toolUse('mcp__test__big', { n: 5000 }, { id: 'toolu_b' }), reply().text('ok'));
    const r = await run(['-p', 'big', '--allowedTools', 'mcp__test'], { MAX_MCP_OUTPUT_TOKENS: '100' });
    expectExit(r, 0);
    const text = textOf(results().get('toolu_b')!.content);
    expect(text.startsWith('x'.repeat(400))).toBe(true);
    expect(text).not.toContain('x'.repeat(401));
    expect(text).toContain('output cut at 400 characters');
  });

  it('a server that fails to start is reported, and the run goes on without it', async () => {
    mcpJson({ broken: stdio('--crash'), missing: { command: 'no-such-mcp-server-here' }, test: stdio() });
    t.api.script(reply().text('fine'));
    const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    const init = r.lines<any>()[0];
    expect(init.mcp_servers).toEqual([
      { name: 'broken', status: 'failed' },
      { name: 'missing', status: 'failed' },
      { name: 'test', status: 'connected' },
    ]);
    expect(init.tools).toContain('mcp__test__echo');
    expect(r.stderr).toMatch(/MCP server "broken" \(.*\.mcp\.json\) failed: .*cannot open the database/);
    expect(r.stderr).toContain('MCP server "missing"');
    expect(r.stderr).toContain('cannot start "no-such-mcp-server-here": command not found');
  });

  it('gives up on a server that does not answer within MCP_TIMEOUT', async () => {
    mcpJson({ mute: stdio('--silent-start') });
    t.api.script(reply().text('fine'));
    const r = await run(['-p', 'hi'], { MCP_TIMEOUT: '700' });
    expectExit(r, 0);
    expect(r.stderr).toContain('MCP server "mute"');
    expect(r.stderr).toContain('did not finish starting within 1 s (MCP_TIMEOUT)');
  });

  it('--mcp-config adds servers (file or JSON text); --strict-mcp-config uses only those; disabledMcpjsonServers turns one off', async () => {
    mcpJson({ fromproject: stdio() });
    const file = path.join(t.project.dir, 'servers.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { fromfile: stdio() } }));
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    expectExit(await run(['-p', 'hi', '--mcp-config', file, JSON.stringify({ mcpServers: { fromtext: stdio() } })]), 0);
    const names = () =>
      (t.api.messageRequests().at(-1)!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name).filter((n) => n.endsWith('__echo'));
    expect(names()).toEqual(['mcp__fromfile__echo', 'mcp__fromtext__echo', 'mcp__fromproject__echo']);
    expectExit(await run(['-p', 'hi', '--strict-mcp-config', '--mcp-config', file]), 0);
    expect(names()).toEqual(['mcp__fromfile__echo']);
    settings({ disabledMcpjsonServers: ['fromproject'] });
    expectExit(await run(['-p', 'hi']), 0);
    expect(names()).toEqual([]);
  });

  it('Ctrl-C cancels a running MCP call at the server and exits 130', async () => {
    mcpJson({ test: stdio() });
    const marker = path.join(t.project.dir, 'slow.marker');
    t.api.script(reply().toolUse('mcp__test__slow', { ms: 30_000 }, { id: 'toolu_s' }), reply().text('never asked'));
    const cli = spawnCli(['-p', 'wait', '--allowedTools', 'mcp__test', '--output-format', 'json'], {
      cwd: t.project.dir,
      home: t.project.home,
      baseUrl: t.api.url,
      env: { MCP_TEST_CANCEL_FILE: marker },
      timeoutMs: 30_000,
    });
    for (let i = 0; i < 200 && !(existsSync(marker) && readFileSync(marker, 'utf8') === 'started'); i++) await new Promise((r) => setTimeout(r, 50));
    cli.child.kill('SIGINT');
    const r = await cli.result;
    expect(r.code).toBe(130);
    for (let i = 0; i < 200 && readFileSync(marker, 'utf8') !== 'cancelled'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(marker, 'utf8')).toBe('cancelled');
    expect(t.api.messageRequests()).toHaveLength(1);
  });

  it('puts the servers’ instructions into the system prompt', async () => {
    mcpJson({ test: stdio() });
    t.api.script(reply().text('ok'));
    expectExit(await run(['-p', 'hi'], { MCP_TEST_INSTRUCTIONS: 'Call echo before anything else.' }), 0);
    const system = JSON.stringify((t.api.messageRequests()[0]!.body as { system: unknown }).system);
    expect(system).toContain('# MCP server instructions\\n\\n## test\\nCall echo before anything else.');
  });

  it('runs a server’s prompt as a slash command: /mcp__server__prompt with its arguments in order', async () => {
    mcpJson({ test: stdio() });
    t.api.script(reply().text('reviewed'));
    expectExit(await run(['-p', '/mcp__test__review 42 error handling']), 0);
    expect(JSON.stringify(t.api.messageRequests()[0]!.body.messages?.[0])).toContain('Review pull request 42, looking at error handling.');
    const missing = await run(['-p', '/mcp__test__review']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('/mcp__test__review needs pr: /mcp__test__review <pr> <focus>');
  });

  it('--permission-prompt-tool: an MCP tool answers the calls that would ask', async () => {
    mcpJson({ test: stdio() });
    t.api.script(
      reply()
        .toolUse('Write', { file_path: path.join(t.project.dir, 'ok.txt'), content: 'yes' }, { id: 'toolu_ok' })
        .toolUse('Write', { file_path: path.join(t.project.dir, 'no.txt'), content: 'no' }, { id: 'toolu_no' }),
      reply().text('done'),
    );
    const r = await run(['-p', 'write both', '--permission-prompt-tool', 'mcp__test__approve', '--output-format', 'json']);
    expectExit(r, 0);
    expect(readFileSync(path.join(t.project.dir, 'ok.txt'), 'utf8')).toBe('yes');
    expect(existsSync(path.join(t.project.dir, 'no.txt'))).toBe(false);
    expect(JSON.stringify(results().get('toolu_no'))).toContain('not Write there');
    expect(r.json<any>().permission_denials).toEqual([expect.objectContaining({ tool_name: 'Write', tool_use_id: 'toolu_no' })]);
    const missing = await run(['-p', 'x', '--permission-prompt-tool', 'mcp__test__nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--permission-prompt-tool: there is no MCP tool mcp__test__nope');
  });

  it('--permission-prompt-tool may change the input; the changed call is checked again (deny rules hold)', async () => {
    mcpJson({ test: stdio() });
    settings({ permissions: { deny: ['Edit(./secret.txt)'] } });
    t.api.script(
      reply()
        .toolUse('Write', { file_path: path.join(t.project.dir, 'redirect-moved.txt'), content: 'moved' }, { id: 'toolu_mv' })
        .toolUse('Write', { file_path: path.join(t.project.dir, 'redirect-secret.txt'), content: 'leak' }, { id: 'toolu_sec' }),
      reply().text('done'),
    );
    expectExit(await run(['-p', 'write', '--permission-prompt-tool', 'mcp__test__approve']), 0);
    expect(readFileSync(path.join(t.project.dir, 'moved.txt'), 'utf8')).toBe('moved');
    expect(existsSync(path.join(t.project.dir, 'redirect-moved.txt'))).toBe(false);
    expect(existsSync(path.join(t.project.dir, 'secret.txt'))).toBe(false);
    expect(JSON.stringify(results().get('toolu_sec'))).toContain('denied by the rule Edit(./secret.txt)');
  });

  it('a bad --mcp-config stops the run with one sentence', async () => {
    const r = await run(['-p', 'hi', '--mcp-config', '{"mcpServers": ']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^wicket: --mcp-config: invalid JSON at line 1/);
    expect(t.api.messageRequests()).toHaveLength(0);
  });

  it('a bare deny rule removes a server’s tools; a PreToolUse hook sees MCP calls', async () => {
    mcpJson({ test: stdio(), other: stdio() });
    const log = path.join(t.project.dir, 'hook.log');
    settings({
      permissions: { deny: ['mcp__other'], allow: ['mcp__test__echo'] },
      hooks: { PreToolUse: [{ matcher: 'mcp__test__.*', hooks: [{ type: 'command', command: `cat >> ${JSON.stringify(log)}` }] }] },
    });
    t.api.script(reply().toolUse('mcp__test__echo', { text: 'x' }, { id: 'toolu_1' }), reply().text('ok'));
    expectExit(await run(['-p', 'hi']), 0);
    expect(toolsSent().some((t) => t.name.startsWith('mcp__other__'))).toBe(false);
    expect(existsSync(log) && JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({ tool_name: 'mcp__test__echo', tool_input: { text: 'x' } });
  });

  it('reaches an http server with the configured headers, and explains a 401', async () => {
    const http = await startHttpServer({ token: 'sesame' });
    try {
      mcpJson({ remote: { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${MCP_TOKEN}' } }, locked: { type: 'http', url: http.url } });
      t.api.script(reply().toolUse('mcp__remote__add', { a: 2, b: 3 }, { id: 'toolu_1' }), reply().text('ok'));
      const r = await run(['-p', 'add', '--allowedTools', 'mcp__remote'], { MCP_TOKEN: 'sesame' });
      expectExit(r, 0);
      expect(results().get('toolu_1')).toMatchObject({ content: '5' });
      expect(r.stderr).toContain('MCP server "locked"');
      expect(r.stderr).toContain('needs authentication');
      expect(http.requests.some((q) => q.authorization === 'Bearer sesame')).toBe(true);
    } finally {
      await http.close();
    }
  });

  it('a headersHelper command supplies headers at connection time; a failing one is the server’s reason', async () => {
    const http = await startHttpServer({ token: 'from-helper' });
    try {
      writeFileSync(
        path.join(t.project.dir, 'headers.sh'),
        'printf \'{"Authorization": "Bearer from-helper", "X-Server": "%s"}\' "$CLAUDE_CODE_MCP_SERVER_NAME"\n',
      );
      mcpJson({
        helped: { type: 'http', url: http.url, headersHelper: 'sh headers.sh' },
        broken: { type: 'http', url: http.url, headersHelper: 'echo nope >&2; exit 3' },
      });
      t.api.script(reply().toolUse('mcp__helped__add', { a: 1, b: 1 }, { id: 'toolu_1' }), reply().text('ok'));
      const r = await run(['-p', 'add', '--allowedTools', 'mcp__helped']);
      expectExit(r, 0);
      expect(results().get('toolu_1')).toMatchObject({ content: '2' });
      expect(http.requests.some((q) => q.authorization === 'Bearer from-helper')).toBe(true);
      expect(r.stderr).toContain('MCP server "broken"');
      expect(r.stderr).toContain('headersHelper failed (exit 3): nope');
    } finally {
      await http.close();
    }
  });
});
