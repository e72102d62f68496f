/**
 * Signing in to a remote MCP server, the way the MCP SDK's client does it: a connection with an
 * OAuth provider meets the server's 401; the SDK discovers the authorization server, registers the
 * client (or uses the entry's `oauth.clientId`) and builds the authorization URL, which the person
 * opens; the browser comes back to the loopback callback with a code, and the transport's
 * `finishAuth(code)` exchanges it for tokens, which the store keeps. The caller then connects again.
 */
import type { McpTransportConfig } from './config.js';
import { describeFailure, isUnauthorized, makeTransport, withHelperHeaders, withTimeout, type McpConnectOptions } from './connect.js';
import { startCallbackServer } from './oauth-callback.js';
import { StoredOAuthProvider } from './oauth-provider.js';
import { clearServerAuth, readServerAuth } from './oauth-store.js';
import { mcpSdk } from './sdk-lib.js';

export type RemoteConfig = Extract<McpTransportConfig, { type: 'http' | 'sse' }>;

export interface SignInOptions extends McpConnectOptions {
  name: string;
  oauthStore: string;
  /** Told the authorization URL to open (shown to the person; the browser is tried). */
  onUrl: (url: string) => void;
  /** How long to wait for the browser to come back (default five minutes). */
  waitMs?: number;
  signal?: AbortSignal;
}

const WAIT_MS = 5 * 60_000;

/**
 * Runs the sign-in to its end: resolves once tokens are stored, or with 'not-needed' when the
 * server connected without one. Stored tokens are not sent meanwhile, and stay until new ones
 * replace them. Throws a sentence saying why it could not sign in.
 */
export async function signIn(config: RemoteConfig, o: SignInOptions): Promise<'signed-in' | 'not-needed'> {
  const sdk = await mcpSdk();
  const previous = readServerAuth(o.oauthStore, o.name, config.url)?.redirectUrl;
  const callback = await startCallbackServer({ port: config.oauth?.callbackPort, preferredPort: portOf(previous) });
  const provider = new StoredOAuthProvider({
    file: o.oauthStore,
    name: o.name,
    url: config.url,
    redirectUrl: callback.redirectUrl,
    clientId: config.oauth?.clientId,
    fresh: true,
    onAuthorizationUrl: (url) => o.onUrl(url.href),
  });
  const client = new sdk.Client({ name: 'wicket', version: o.version }, { capabilities: {} });
  try {
    const withHeaders = (await withHelperHeaders(config, o)) as RemoteConfig;
    const { transport } = makeTransport(sdk, withHeaders, o, provider);
    try {
      await withTimeout(client.connect(transport, { timeout: o.timeoutMs }), o.timeoutMs);
      return 'not-needed';
    } catch (err) {
      if (!provider.authorizationUrl) throw new Error(signInFailure(sdk, err, withHeaders, o.timeoutMs));
    }
    const code = await callback.code(() => provider.expectedState, { timeoutMs: o.waitMs ?? WAIT_MS, signal: o.signal });
    if (!('finishAuth' in transport)) throw new Error('this transport cannot sign in');
    await transport.finishAuth(code).catch((err: unknown) => {
      throw new Error(`the authorization server did not accept the sign-in: ${errorText(err)}`);
    });
    return 'signed-in';
  } finally {
    callback.close();
    await client.close().catch(() => {});
  }
}

/** Forgets the server's stored tokens and registration: its next connection needs a new sign-in. */
export function signOut(config: RemoteConfig, o: { name: string; oauthStore: string }): Promise<boolean> {
  return clearServerAuth(o.oauthStore, o.name, config.url);
}

function portOf(url: string | undefined): number | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const port = Number(new URL(url).port);
  return port > 0 ? port : undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function signInFailure(sdk: Awaited<ReturnType<typeof mcpSdk>>, err: unknown, config: RemoteConfig, timeoutMs: number): string {
  const message = errorText(err);
  if (/does not support dynamic client registration/i.test(message)) {
    return `its authorization server does not register clients itself: register one there and put its id in the entry's "oauth": {"clientId": "…"}`;
  }
  if (isUnauthorized(sdk, err)) return `${config.url} refused the sign-in (${message || 'unauthorized'})`;
  return describeFailure(err, config, timeoutMs, '');
}
