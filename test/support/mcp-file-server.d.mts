// Types for mcp-file-server.mjs (a plain script, so it runs as a stdio MCP server without a compiler).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** read_file {path}, read_many {paths}, read_uri {uri}, inspect {options} (read-only); copy_file {source, destination}, write_file {file_path, content}. */
export function makeFileServer(): McpServer;
