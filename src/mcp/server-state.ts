/**
 * What a session's MCP servers look like from outside (servers.ts keeps them): each server's state
 * (waiting, connected, failed…, with its tools), the state a configured server starts in, and a
 * connected server's resource as `@server:uri` mentions name it.
 */
import type { McpScope, McpServerEntry, McpTransportConfig } from './config.js';
import type { McpResourceInfo } from './types.js';

export type McpStatus = 'pending' | 'connected' | 'failed' | 'needs-auth' | 'disabled' | 'needs-approval';

export interface McpServerState {
  name: string;
  scope: McpScope;
  source: string;
  transport?: McpTransportConfig['type'];
  /** The command line or URL, for the person. */
  detail?: string;
  status: McpStatus;
  /** Why it failed, or is not started. */
  error?: string;
  toolNames: string[];
  /** Resources it listed; undefined when it offers none (or is not connected). */
  resourceCount?: number;
  /** Tools left out: a name over the API's 64 characters, or one another server already uses. */
  skipped: string[];
  /** An http or sse server with OAuth tokens stored (as of its last connection attempt). */
  signedIn?: boolean;
}

/** A resource of a connected server, for `@server:uri` mentions and their completion. */
export interface McpServerResource extends McpResourceInfo {
  server: string;
}

/**
 * A configured server's state before it starts: failed when its entry has an error, waiting for the
 * person's approval when `held`, turned off (without its transport shown) when `off`, else pending.
 */
export function initialState(e: McpServerEntry, held: boolean, off: boolean): McpServerState {
  const status: McpStatus = off ? 'disabled' : e.error ? 'failed' : held ? 'needs-approval' : 'pending';
  const detail = !off && e.config ? (e.config.type === 'stdio' ? [e.config.command, ...e.config.args].join(' ') : e.config.url) : undefined;
  return {
    name: e.name,
    scope: e.scope,
    source: e.source,
    ...(off ? {} : { transport: e.config?.type, detail }),
    status,
    error: off ? (e.offReason ?? 'turned off by disabledMcpjsonServers') : e.error,
    toolNames: [],
    skipped: [],
  };
}
