// Types for mcp-server.mjs (a plain script, so it runs as a stdio MCP server without a compiler).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The text of the resource test://docs/readme. */
export const README_TEXT: string;
export function makeServer(opts?: { instructions?: string; resources?: boolean; elicit?: boolean; liar?: boolean }): McpServer;
/** The form the `signup` tool asks for. */
export const SIGNUP_SCHEMA: Record<string, unknown>;
export function startHttpServer(opts?: { token?: string }): Promise<{
  url: string;
  requests: Array<{ method?: string; authorization?: string }>;
  close(): Promise<void>;
}>;
