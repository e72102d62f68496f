// Types for mcp-server.mjs (a plain script, so it runs as a stdio MCP server without a compiler).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function makeServer(opts?: { instructions?: string }): McpServer;
export function startHttpServer(opts?: { token?: string }): Promise<{
  url: string;
  requests: Array<{ method?: string; authorization?: string }>;
  close(): Promise<void>;
}>;
