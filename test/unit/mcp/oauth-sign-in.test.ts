/**
 * Signing in to an OAuth-protected MCP server through McpServers and the real MCP SDK, against the
 * fake server of test/support; the test plays the browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpConfig } from '../../../src/mcp/config.js';
import { oauthStorePath, readServerAuth } from '../../../src/mcp/oauth-store.js';
import { McpServers } from '../../../src/mcp/servers.js';
import { startOAuthMcpServer, type OAuthMcpServer } from '../../support/oauth-mcp-server.mjs';

let dir: string;
let store: string;
let server: OAuthMcpServer;
const open: McpServers[] = [];

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'wicket-signin-'));
  store = oauthStorePath(dir);
  server = await startOAuthMcpServer();
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function servers(oauth?: { clientId?: string; callbackPort?: number }, type: 'http' | 'sse' = 'http'): McpServers {
  const config: McpConfig = {
    servers: [{ name: 'remote', scope: 'project', source: '.mcp.json', config: { type, url: server.url, headers: {}, ...(oauth ? { oauth } : {}) } }],
    unapproved: [],
    disabled: [],
    warnings: [],
  };
  const s = new McpServers(config, {
    projectRoot: dir,
    env: {},
    version: '0',
    timeoutMs: 10_000,
    toolTimeoutMs: 10_000,
    maxOutputChars: 1e5,
    holdUnapproved: false,
    oauthStore: store,
  });
  open.push(s);
  return s;
}

/** Opens the authorization URL as a browser would: the server redirects to the loopback callback, which answers. */
async function browse(url: string, state?: (s: string) => string): Promise<{ status: number; page: string; callback: string }> {
  const auth = await fetch(url, { redirect: 'manual' });
  expect(auth.status).toBe(302);
  const back = new URL(auth.headers.get('location')!);
  if (state) back.searchParams.set('state', state(back.searchParams.get('state')!));
  const res = await fetch(back);
  return { status: res.status, page: await res.text(), callback: back.href };
}

const state = (s: McpServers) => s.list()[0]!;

describe('signing in to a remote MCP server', () => {
  it('needs authentication without tokens; the sign-in stores them and connects; the next session uses them', async () => {
    const s = servers();
    await s.start();
    expect(state(s)).toMatchObject({ status: 'needs-auth', error: `${server.url} needs authentication`, toolNames: [] });
    let url = '';
    const done = s.signIn('remote', { onUrl: (u) => (url = u) });
    await until(() => url !== '');
    expect(url.startsWith(`${server.issuer}/authorize?`)).toBe(true);
    const q = new URL(url).searchParams;
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('redirect_uri')).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(q.get('resource')).toBe(server.url);
    const browser = await browse(url);
    expect(browser.status).toBe(200);
    expect(browser.page).toContain('Signed in.');
    expect(await done).toBe('signed-in');
    expect(state(s)).toMatchObject({ status: 'connected', signedIn: true });
    expect(state(s).toolNames).toContain('mcp__remote__echo');
    // Registered dynamically; the verifier is gone once the tokens are in.
    const saved = readServerAuth(store, 'remote', server.url)!;
    expect(saved.client?.client_id).toMatch(/^client_/);
    expect(saved.codeVerifier).toBeUndefined();
    expect(server.requests.filter((r) => r.path === '/register')).toHaveLength(1);
    // Bearer tokens went to the MCP endpoint only.
    expect(server.requests.filter((r) => r.authorization).every((r) => r.path === '/mcp')).toBe(true);

    const next = servers();
    await next.start();
    expect(state(next)).toMatchObject({ status: 'connected', signedIn: true });
  });

  it('an sse server the server refuses also needs authentication', async () => {
    const s = servers(undefined, 'sse');
    await s.start();
    expect(state(s)).toMatchObject({ status: 'needs-auth', transport: 'sse' });
  });

  it('refuses a callback whose state is not the one sent, and keeps waiting for the right one', async () => {
    const s = servers();
    await s.start();
    let url = '';
    const done = s.signIn('remote', { onUrl: (u) => (url = u) });
    await until(() => url !== '');
    const forged = await browse(url, () => 'forged');
    expect(forged.status).toBe(400);
    expect(forged.page).toContain('state does not match');
    expect(state(s).status).toBe('needs-auth');
    expect((await browse(url)).status).toBe(200);
    expect(await done).toBe('signed-in');
    expect(state(s).status).toBe('connected');
  });

  it('an expired access token is refreshed by the SDK, and the new tokens are stored', async () => {
    const seeded = server.seed();
    const s0 = servers();
    await seed(seeded);
    server.expireAccessTokens();
    await s0.start();
    expect(state(s0).status).toBe('connected');
    expect(server.requests.filter((r) => r.grant_type === 'refresh_token')).toHaveLength(1);
    const saved = readServerAuth(store, 'remote', server.url)!;
    expect(saved.tokens?.access_token).not.toBe(seeded.tokens.access_token);
    expect(server.validAccessTokens()).toContain(saved.tokens?.access_token);
    expect(saved.expiresAt).toBeGreaterThan(Date.now());
  });

  it('a refresh the server refuses leaves the server needing authentication, without asking anyone', async () => {
    await seed({ client_id: 'client_gone', tokens: { access_token: 'nope', token_type: 'Bearer', expires_in: 60, refresh_token: 'nope' } });
    const s = servers();
    await s.start();
    expect(state(s).status).toBe('needs-auth');
    expect(readServerAuth(store, 'remote', server.url)?.tokens).toBeUndefined();
  });

  it('logout clears the stored authentication and connects again without it', async () => {
    await seed(server.seed());
    const s = servers();
    await s.start();
    expect(state(s).status).toBe('connected');
    expect(await s.signOut('remote')).toBe(true);
    expect(state(s)).toMatchObject({ status: 'needs-auth', signedIn: false });
    expect(readServerAuth(store, 'remote', server.url)).toBeUndefined();
  });

  it('uses the entry’s clientId (no registration) and its callbackPort', async () => {
    await server.close();
    server = await startOAuthMcpServer({ clientId: 'preset-client', registration: false });
    const port = await freePort();
    const s = servers({ clientId: 'preset-client', callbackPort: port });
    await s.start();
    let url = '';
    const done = s.signIn('remote', { onUrl: (u) => (url = u) });
    await until(() => url !== '');
    expect(new URL(url).searchParams.get('client_id')).toBe('preset-client');
    expect((await browse(url)).callback.startsWith(`http://localhost:${port}/callback?`)).toBe(true);
    expect(await done).toBe('signed-in');
    expect(state(s).status).toBe('connected');
    expect(server.requests.some((r) => r.path === '/register')).toBe(false);
  });

  it('says what to do when the server cannot register clients and the entry names none', async () => {
    await server.close();
    server = await startOAuthMcpServer({ registration: false });
    const s = servers();
    await s.start();
    await expect(s.signIn('remote', { onUrl: () => {} })).rejects.toThrow(/"oauth": \{"clientId"/);
  });
});

async function seed(seeded: ReturnType<OAuthMcpServer['seed']>): Promise<void> {
  const { StoredOAuthProvider } = await import('../../../src/mcp/oauth-provider.js');
  const p = new StoredOAuthProvider({ file: store, name: 'remote', url: server.url });
  await p.saveClientInformation({ client_id: seeded.client_id, issuer: server.issuer } as never);
  await p.saveTokens({ ...seeded.tokens, issuer: server.issuer } as never);
}

async function until(ok: () => boolean, ms = 5000): Promise<void> {
  for (const start = Date.now(); !ok(); ) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
