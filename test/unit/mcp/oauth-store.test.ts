import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoredOAuthProvider } from '../../../src/mcp/oauth-provider.js';
import { clearServerAuth, hasStoredTokens, oauthStorePath, readServerAuth, updateServerAuth } from '../../../src/mcp/oauth-store.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wicket-oauth-'));
  file = oauthStorePath(path.join(dir, 'state'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const URL_A = 'https://a.example.com/mcp';
const URL_B = 'https://b.example.com/mcp';
const tokens = (access: string) => ({
  access_token: access,
  token_type: 'Bearer',
  refresh_token: `r-${access}`,
  expires_in: 3600,
  issuer: 'https://a.example.com',
});

describe('the OAuth store', () => {
  it('creates the state folder and writes the file for its owner only (0600)', async () => {
    await updateServerAuth(file, 'a', URL_A, (s) => ({ ...s, codeVerifier: 'v' }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o077).toBe(0);
    expect(readServerAuth(file, 'a', URL_A)).toEqual({ name: 'a', url: URL_A, codeVerifier: 'v' });
  });

  it('replaces the file in one step (a new file renamed over it) and leaves no temporary file', async () => {
    await updateServerAuth(file, 'a', URL_A, (s) => ({ ...s, codeVerifier: 'old' }));
    const before = path.join(dir, 'before.json');
    linkSync(file, before);
    await updateServerAuth(file, 'a', URL_A, (s) => ({ ...s, codeVerifier: 'new' }));
    // The old file was not written in place: a link to it still holds the old text.
    expect(readFileSync(before, 'utf8')).toContain('"old"');
    expect(readServerAuth(file, 'a', URL_A)?.codeVerifier).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['mcp-oauth.json']);
  });

  it('keeps one record per server name and URL; saves made together all land', async () => {
    await Promise.all([
      updateServerAuth(file, 'a', URL_A, (s) => ({ ...s, tokens: tokens('ta') })),
      updateServerAuth(file, 'b', URL_B, (s) => ({ ...s, tokens: tokens('tb') })),
      updateServerAuth(file, 'a', URL_B, (s) => ({ ...s, tokens: tokens('tab') })),
    ]);
    expect(readServerAuth(file, 'a', URL_A)?.tokens?.access_token).toBe('ta');
    expect(readServerAuth(file, 'b', URL_B)?.tokens?.access_token).toBe('tb');
    expect(readServerAuth(file, 'a', URL_B)?.tokens?.access_token).toBe('tab');
    expect(hasStoredTokens(file, 'b', URL_A)).toBe(false);
    expect(await clearServerAuth(file, 'a', URL_A)).toBe(true);
    expect(await clearServerAuth(file, 'a', URL_A)).toBe(false);
    expect(hasStoredTokens(file, 'a', URL_A)).toBe(false);
    expect(hasStoredTokens(file, 'a', URL_B)).toBe(true);
  });

  it('reads a damaged file as empty and replaces it on the next save', async () => {
    await updateServerAuth(file, 'a', URL_A, (s) => ({ ...s, codeVerifier: 'v' }));
    writeFileSync(file, '{ not json');
    expect(readServerAuth(file, 'a', URL_A)).toBeUndefined();
    await updateServerAuth(file, 'b', URL_B, (s) => ({ ...s, codeVerifier: 'w' }));
    expect(readServerAuth(file, 'b', URL_B)?.codeVerifier).toBe('w');
  });
});

describe('StoredOAuthProvider', () => {
  const provider = (over: Partial<ConstructorParameters<typeof StoredOAuthProvider>[0]> = {}) =>
    new StoredOAuthProvider({ file, name: 'a', url: URL_A, ...over });

  it('stores the client, the verifier and the tokens of one server; saving tokens ends the sign-in', async () => {
    const p = provider({ redirectUrl: 'http://localhost:4567/callback' });
    expect(p.tokens()).toBeUndefined();
    expect(p.clientInformation()).toBeUndefined();
    await p.saveClientInformation({ client_id: 'c1', redirect_uris: ['http://localhost:4567/callback'], issuer: 'https://a.example.com' } as never);
    await p.saveCodeVerifier('verifier');
    expect(p.codeVerifier()).toBe('verifier');
    await p.saveTokens(tokens('t1'));
    const back = provider().tokens()!;
    expect(back).toMatchObject({ access_token: 't1', refresh_token: 'r-t1', issuer: 'https://a.example.com' });
    expect(back.expires_in).toBeGreaterThan(3590);
    expect(() => provider().codeVerifier()).toThrow(/no sign-in is under way/);
    expect(provider().clientInformation()).toMatchObject({ client_id: 'c1' });
    // The redirect URL of the sign-in is remembered for the next one.
    expect(provider().redirectUrl).toBe('http://localhost:4567/callback');
    expect(provider({ name: 'b' }).tokens()).toBeUndefined();
  });

  it('a new sign-in does not offer the stored tokens until it has its own', async () => {
    await provider().saveTokens(tokens('old'));
    const p = provider({ fresh: true });
    expect(p.tokens()).toBeUndefined();
    await p.saveTokens(tokens('new'));
    expect(p.tokens()?.access_token).toBe('new');
  });

  it('registers again when the callback port changed; an entry’s clientId is used as given', async () => {
    await provider().saveClientInformation({ client_id: 'dyn', redirect_uris: ['http://localhost:1111/callback'] } as never);
    expect(provider({ redirectUrl: 'http://localhost:1111/callback' }).clientInformation()).toMatchObject({ client_id: 'dyn' });
    expect(provider({ redirectUrl: 'http://localhost:2222/callback' }).clientInformation()).toBeUndefined();
    expect(provider({ clientId: 'mine' }).clientInformation()).toEqual({ client_id: 'mine' });
    await provider({ clientId: 'mine' }).saveClientInformation({ client_id: 'mine', issuer: 'https://a.example.com' } as never);
    expect(provider({ clientId: 'mine' }).clientInformation()).toEqual({ client_id: 'mine', issuer: 'https://a.example.com' });
  });

  it('does not forget tokens another process saved after the refused ones were handed out', async () => {
    await provider().saveTokens(tokens('t1'));
    const mine = provider();
    expect(mine.tokens()?.access_token).toBe('t1');
    await provider().saveTokens(tokens('t2'));
    await mine.invalidateCredentials('tokens');
    expect(provider().tokens()?.access_token).toBe('t2');
    expect(mine.tokens()?.access_token).toBe('t2');
    await mine.invalidateCredentials('tokens');
    expect(provider().tokens()).toBeUndefined();
  });

  it('forgets what the server no longer accepts; remembers the sign-in state and URL it was given', async () => {
    const p = provider({ redirectUrl: 'http://localhost:1/callback' });
    await p.saveClientInformation({ client_id: 'c' } as never);
    await p.saveTokens(tokens('t'));
    await p.invalidateCredentials('tokens');
    expect(provider().tokens()).toBeUndefined();
    expect(provider().clientInformation()).toMatchObject({ client_id: 'c' });
    await p.invalidateCredentials('all');
    expect(readServerAuth(file, 'a', URL_A)).toEqual({ name: 'a', url: URL_A, redirectUrl: 'http://localhost:1/callback' });
    const state = p.state();
    expect(state).toMatch(/^[0-9a-f]{48}$/);
    expect(p.expectedState).toBe(state);
    const seen: string[] = [];
    const q = provider({ onAuthorizationUrl: (u) => seen.push(u.href) });
    q.redirectToAuthorization(new URL('https://a.example.com/authorize?x=1'));
    expect(seen).toEqual(['https://a.example.com/authorize?x=1']);
    expect(q.authorizationUrl?.href).toBe('https://a.example.com/authorize?x=1');
  });
});
