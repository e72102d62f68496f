/**
 * OAuth for remote MCP servers through the built binary, against a local OAuth-protected MCP server:
 * print mode never waits for a browser (a stored token is used, refreshed when expired; without one
 * the server is reported as needing authentication and the run goes on), and `wicket mcp login`
 * signs in with the test playing the browser.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoredOAuthProvider } from '../../src/mcp/oauth-provider.js';
import { oauthStorePath, readServerAuth } from '../../src/mcp/oauth-store.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { startOAuthMcpServer, type OAuthMcpServer } from '../support/oauth-mcp-server.mjs';
import { expectExit, runCli, spawnCli } from '../support/run-cli.js';

const t = useApiAndProject();
let server: OAuthMcpServer;
beforeEach(async () => {
  server = await startOAuthMcpServer();
  writeFileSync(path.join(t.project.dir, '.mcp.json'), JSON.stringify({ mcpServers: { remote: { type: 'http', url: server.url } } }));
});
afterEach(() => server.close());

const store = () => oauthStorePath(path.join(t.project.home, '.wicket'));
const mcp = (...args: string[]) => runCli(['mcp', ...args], { cwd: t.project.dir, home: t.project.home, timeoutMs: 30_000 });
const addRun = () => t.run(['-p', 'add', '--allowedTools', 'mcp__remote', '--output-format', 'stream-json', '--verbose'], { timeoutMs: 30_000 });

/** The tool_result of `id` in the last request to the model. */
function result(id: string): { content: unknown; is_error?: boolean } | undefined {
  const body = t.api.messageRequests().at(-1)!.body as { messages: Array<{ content: unknown }> };
  for (const m of body.messages) for (const b of Array.isArray(m.content) ? m.content : []) if (b.type === 'tool_result' && b.tool_use_id === id) return b;
  return undefined;
}

/** Tokens as a finished sign-in leaves them, written with the same provider the binary uses. */
async function seed(): Promise<ReturnType<OAuthMcpServer['seed']>> {
  const seeded = server.seed();
  const p = new StoredOAuthProvider({ file: store(), name: 'remote', url: server.url });
  await p.saveClientInformation({ client_id: seeded.client_id, issuer: server.issuer } as never);
  await p.saveTokens({ ...seeded.tokens, issuer: server.issuer } as never);
  return seeded;
}

/** Nothing the binary printed holds a token the server issued. */
function expectNoTokens(...outputs: string[]): void {
  const saved = readServerAuth(store(), 'remote', server.url)?.tokens;
  for (const secret of [...server.validAccessTokens(), saved?.access_token, saved?.refresh_token].filter(Boolean)) {
    for (const out of outputs) expect(out).not.toContain(secret);
  }
}

describe('OAuth for remote MCP servers', () => {
  it('print mode without a stored token: the server needs authentication, stderr says where to sign in, the run answers', async () => {
    t.api.script(reply().text('answered without it'));
    const r = await addRun();
    expectExit(r, 0);
    const init = r.lines<any>().find((l) => l.type === 'system' && l.subtype === 'init');
    expect(init.mcp_servers).toEqual([{ name: 'remote', status: 'needs-auth' }]);
    expect(init.tools.some((n: string) => n.startsWith('mcp__remote__'))).toBe(false);
    expect(r.stderr).toContain('MCP server "remote"');
    expect(r.stderr).toContain('needs authentication: run /mcp in the app');
    expect(r.lines<any>().at(-1)).toMatchObject({ type: 'result', result: 'answered without it' });
    // No sign-in was started: nothing registered, nothing stored.
    expect(server.requests.some((q) => q.path === '/register' || q.path === '/token')).toBe(false);
  });

  it('print mode with a stored token connects with it and calls the tool', async () => {
    await seed();
    t.api.script(reply().toolUse('mcp__remote__add', { a: 2, b: 3 }, { id: 'toolu_1' }), reply().text('ok'));
    const r = await addRun();
    expectExit(r, 0);
    expect(r.lines<any>().find((l) => l.subtype === 'init').mcp_servers).toEqual([{ name: 'remote', status: 'connected' }]);
    expect(result('toolu_1')).toMatchObject({ content: '5' });
    expect(r.stderr).toBe('');
    expectNoTokens(r.stdout, r.stderr);
  });

  it('an expired access token is refreshed by the SDK and the new tokens are stored', async () => {
    const seeded = await seed();
    server.expireAccessTokens();
    t.api.script(reply().toolUse('mcp__remote__add', { a: 1, b: 1 }, { id: 'toolu_1' }), reply().text('ok'));
    const r = await addRun();
    expectExit(r, 0);
    expect(result('toolu_1')).toMatchObject({ content: '2' });
    expect(server.requests.filter((q) => q.grant_type === 'refresh_token')).toHaveLength(1);
    const saved = readServerAuth(store(), 'remote', server.url)!;
    expect(saved.tokens?.access_token).not.toBe(seeded.tokens.access_token);
    expect(saved.tokens?.refresh_token).not.toBe(seeded.tokens.refresh_token);
    expectNoTokens(r.stdout, r.stderr);
  });

  it('wicket mcp login: the URL is printed and the browser tried; the callback finishes it; then print mode calls the tool', async () => {
    const opened = path.join(t.project.home, 'opened.txt');
    const browser = path.join(t.project.home, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${JSON.stringify(opened)}\n`, { mode: 0o755 });
    const login = spawnCli(['mcp', 'login', 'remote'], { cwd: t.project.dir, home: t.project.home, env: { BROWSER: browser }, timeoutMs: 30_000 });
    await login.waitFor('Waiting for the browser');
    const url = /^\s+(http\S+)$/m.exec(login.stdout())![1]!;
    expect(url.startsWith(`${server.issuer}/authorize?`)).toBe(true);
    // Playing the browser: the authorization server sends it to the loopback callback.
    const authorize = await fetch(url, { redirect: 'manual' });
    const callback = authorize.headers.get('location')!;
    expect(callback).toMatch(/^http:\/\/localhost:\d+\/callback\?code=/);
    const page = await fetch(callback);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in.');
    const done = expectExit(await login.result, 0);
    expect(done.stdout).toContain('Signed in to remote: connected, 10 tools.');
    expect(readFileSync(opened, 'utf8').trim()).toBe(url);
    expect(statSync(store()).mode & 0o777).toBe(0o600);
    expectNoTokens(done.stdout, done.stderr);

    t.api.script(reply().toolUse('mcp__remote__echo', { text: 'signed' }, { id: 'toolu_1' }), reply().text('ok'));
    const r = await addRun();
    expectExit(r, 0);
    expect(result('toolu_1')).toMatchObject({ content: 'echo: signed' });
    // Bearer tokens were sent to the MCP endpoint only.
    expect(server.requests.filter((q) => q.authorization).every((q) => q.path === '/mcp')).toBe(true);

    expect((await mcp('list')).stdout).toContain('remote: ' + server.url + ' (HTTP) - ✓ Connected');
    const out = expectExit(await mcp('logout', 'remote'), 0);
    expect(out.stdout).toContain('Cleared the stored authentication of remote.');
    expect((await mcp('list')).stdout).toContain('remote: ' + server.url + ' (HTTP) - ! Needs authentication');
    expect((await mcp('get', 'remote')).stdout).toContain('Status: needs authentication (wicket mcp login remote signs in)');
  });

  it('wicket mcp add takes --client-id and --callback-port into the entry’s "oauth"', async () => {
    expectExit(await mcp('add', '-s', 'project', '-t', 'http', '--client-id', 'preset', '--callback-port', '8765', 'linear', 'https://mcp.example.com/mcp'), 0);
    expect(JSON.parse(readFileSync(path.join(t.project.dir, '.mcp.json'), 'utf8')).mcpServers.linear).toEqual({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      oauth: { clientId: 'preset', callbackPort: 8765 },
    });
    const bad = await mcp('add', '-t', 'http', '--callback-port', 'soon', 'other', 'https://mcp.example.com/mcp');
    expectExit(bad, 1);
    expect(bad.stderr).toContain('"oauth.callbackPort" must be a port number');
  });

  it('wicket mcp login refuses a stdio server and an unknown name', async () => {
    writeFileSync(path.join(t.project.dir, '.mcp.json'), JSON.stringify({ mcpServers: { local: { command: 'true' } } }));
    const stdio = await mcp('login', 'local');
    expectExit(stdio, 1);
    expect(stdio.stderr).toContain('local is a stdio server: only http and sse servers sign in with OAuth');
    expect((await mcp('logout', 'nobody')).stderr).toContain('no MCP server named nobody');
  });
});
