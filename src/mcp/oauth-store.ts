/**
 * Where wicket keeps what OAuth gave it for each remote MCP server: the client registration, the
 * tokens (with when the access token expires), the PKCE verifier of a sign-in under way, the
 * discovered server metadata, and the redirect URL last used. One file in wicket's state folder
 * (`<WICKET_HOME>/mcp-oauth.json`), readable by its owner only (0600), rewritten atomically; each
 * server's record is keyed by its name and URL, so a server renamed or moved signs in afresh.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../base/fs/write-file-atomic.js';

/** The record of one server. Tokens and secrets stay in this file: nothing here is ever printed. */
export interface StoredServerAuth {
  name: string;
  url: string;
  /** The client as registered (dynamically, or the entry's `oauth.clientId` once bound to its issuer). */
  client?: Record<string, unknown> & { client_id: string };
  tokens?: Record<string, unknown> & { access_token: string; refresh_token?: string };
  /** When the access token expires (ms since the epoch), from `expires_in` when it was saved. */
  expiresAt?: number;
  codeVerifier?: string;
  discovery?: Record<string, unknown>;
  redirectUrl?: string;
}

interface StoreFile {
  version: 1;
  servers: Record<string, StoredServerAuth>;
}

export const OAUTH_STORE_FILE = 'mcp-oauth.json';

/** The store in a state folder (WICKET_HOME, or ~/.wicket). */
export function oauthStorePath(wicketHome: string): string {
  return path.join(wicketHome, OAUTH_STORE_FILE);
}

/** The key of a server's record: its name and URL. */
export function serverAuthKey(name: string, url: string): string {
  return `${name}|${url}`;
}

function readStore(file: string): StoreFile {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoreFile>;
    if (data && typeof data === 'object' && data.servers && typeof data.servers === 'object' && !Array.isArray(data.servers))
      return { version: 1, servers: data.servers };
  } catch {
    // missing or unreadable: nothing stored (a damaged file is replaced on the next save)
  }
  return { version: 1, servers: {} };
}

/** The server's record, or undefined when nothing is stored for it. */
export function readServerAuth(file: string, name: string, url: string): StoredServerAuth | undefined {
  return readStore(file).servers[serverAuthKey(name, url)];
}

/** Whether the server has tokens stored (a connection can use them without asking). */
export function hasStoredTokens(file: string, name: string, url: string): boolean {
  return Boolean(readServerAuth(file, name, url)?.tokens?.access_token);
}

/** Writes to one file wait for each other, so two saves of one sign-in never lose each other's change. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Changes the server's record (`edit` returns the new one, or undefined to remove it) and writes the
 * file back: read again just before, so records of other servers written meanwhile are kept.
 */
export function updateServerAuth(file: string, name: string, url: string, edit: (current: StoredServerAuth) => StoredServerAuth | undefined): Promise<void> {
  const run = async () => {
    const store = readStore(file);
    const key = serverAuthKey(name, url);
    const next = edit(store.servers[key] ?? { name, url });
    if (next) store.servers[key] = { ...next, name, url };
    else if (key in store.servers) delete store.servers[key];
    else return;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  };
  const queued = (queues.get(file) ?? Promise.resolve()).then(run, run);
  const settled = queued.catch(() => {});
  queues.set(file, settled);
  void settled.then(() => queues.get(file) === settled && queues.delete(file));
  return queued;
}

/** Forgets everything stored for the server; true when there was something. */
export async function clearServerAuth(file: string, name: string, url: string): Promise<boolean> {
  const had = readServerAuth(file, name, url) !== undefined;
  await updateServerAuth(file, name, url, () => undefined);
  return had;
}
