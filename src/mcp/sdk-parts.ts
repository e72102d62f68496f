/**
 * The parts of the MCP SDK (and of ajv, which it uses) that wicket's client needs. It is the entry
 * of a bundle of its own (build.mjs), loaded only when a session has MCP servers.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { WebSocketTransport } from './ws-transport.js';
export { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { Ajv } from 'ajv';
