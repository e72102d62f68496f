// Types for oauth-mcp-server.mjs.
export interface OAuthMcpServer {
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The authorization server (the same origin). */
  issuer: string;
  requests: Array<{ method?: string; path: string; query: string; authorization?: string; grant_type?: string }>;
  seed(): { client_id: string; tokens: { access_token: string; token_type: string; expires_in: number; refresh_token: string } };
  expireAccessTokens(): void;
  validAccessTokens(): string[];
  close(): Promise<void>;
}
export function startOAuthMcpServer(opts?: { tokenLifetimeSec?: number; clientId?: string; registration?: boolean }): Promise<OAuthMcpServer>;
