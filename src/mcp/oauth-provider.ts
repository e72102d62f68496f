/**
 * The MCP SDK's OAuth client provider for one remote server, on wicket's store (oauth-store.ts):
 * the SDK's `auth()` discovers the authorization server, registers the client (unless the entry
 * names its own `oauth.clientId`), builds the authorization URL with PKCE, exchanges the code and
 * refreshes expired tokens; this provider only keeps what it is given and hands it back. A provider
 * made for a sign-in remembers the authorization URL and the `state` it sent; one made for a plain
 * connection never asks anyone for anything.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomHex } from '../base/ids.js';
import { readServerAuth, updateServerAuth, type StoredServerAuth } from './oauth-store.js';

export interface ProviderOptions {
  /** The store file (oauth-store.ts). */
  file: string;
  name: string;
  url: string;
  /** Where the authorization server sends the browser back: the loopback callback of a sign-in. */
  redirectUrl?: string;
  /** The entry's `oauth.clientId`: a client registered in advance, so no dynamic registration. */
  clientId?: string;
  /** Told the authorization URL once the SDK has built it (a sign-in shows it and opens the browser). */
  onAuthorizationUrl?: (url: URL) => void;
  /** A new sign-in: the stored tokens are not offered (they stay until new ones replace them). */
  fresh?: boolean;
}

/** Where a connection that never signs in says the browser would return; never listened on. */
const UNUSED_REDIRECT = 'http://localhost/callback';

export class StoredOAuthProvider implements OAuthClientProvider {
  /** The authorization URL the SDK asked to open, once it has. */
  authorizationUrl?: URL;
  /** The `state` sent with the authorization request: the callback must bring it back. */
  expectedState?: string;
  private savedTokens = false;
  /** The access token last handed to the SDK: only that one is forgotten when the server refuses it. */
  private offered?: string;

  constructor(private readonly o: ProviderOptions) {}

  get redirectUrl(): string {
    return this.o.redirectUrl ?? this.stored()?.redirectUrl ?? UNUSED_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'wicket',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomHex(24);
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const client = this.stored()?.client as OAuthClientInformationMixed | undefined;
    const { clientId } = this.o;
    if (clientId) return client?.client_id === clientId ? client : { client_id: clientId };
    // A registration made for another redirect URL (another callback port) is made again.
    const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (client && this.o.redirectUrl && Array.isArray(uris) && !uris.includes(this.o.redirectUrl)) return undefined;
    return client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    return this.update((s) => ({ ...s, client: info as StoredServerAuth['client'] }));
  }

  tokens(): OAuthTokens | undefined {
    if (this.o.fresh && !this.savedTokens) return undefined;
    const s = this.stored();
    if (!s?.tokens?.access_token) return undefined;
    const tokens = { ...s.tokens } as OAuthTokens;
    this.offered = tokens.access_token;
    if (s.expiresAt !== undefined) tokens.expires_in = Math.max(0, Math.floor((s.expiresAt - Date.now()) / 1000));
    return tokens;
  }

  /** Saves new tokens (the sign-in's verifier is done with); the expiry is kept as a time. */
  saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined;
    this.savedTokens = true;
    return this.update((s) => {
      const { codeVerifier: _done, expiresAt: _old, ...rest } = s;
      return { ...rest, tokens: tokens as StoredServerAuth['tokens'], ...(expiresAt !== undefined ? { expiresAt } : {}), redirectUrl: this.redirectUrl };
    });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
    this.o.onAuthorizationUrl?.(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): Promise<void> {
    return this.update((s) => ({ ...s, codeVerifier }));
  }

  codeVerifier(): string {
    const v = this.stored()?.codeVerifier;
    if (!v) throw new Error('no sign-in is under way for this server (the PKCE verifier is missing)');
    return v;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.update((s) => ({ ...s, discovery: state as unknown as Record<string, unknown> }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.stored()?.discovery as OAuthDiscoveryState | undefined;
  }

  /**
   * The server said what it holds is no longer good: forget that part. Tokens another wicket saved
   * meanwhile (it refreshed them first) are not the ones refused, and stay.
   */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    return this.update((s) => {
      const next = { ...s };
      if (scope === 'all' || scope === 'client') delete next.client;
      const replaced = scope === 'tokens' && this.offered !== undefined && s.tokens?.access_token !== this.offered;
      if ((scope === 'all' || scope === 'tokens') && !replaced) {
        delete next.tokens;
        delete next.expiresAt;
      }
      if (scope === 'all' || scope === 'verifier') delete next.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    });
  }

  private stored(): StoredServerAuth | undefined {
    return readServerAuth(this.o.file, this.o.name, this.o.url);
  }

  private update(edit: (s: StoredServerAuth) => StoredServerAuth): Promise<void> {
    return updateServerAuth(this.o.file, this.o.name, this.o.url, edit);
  }
}
