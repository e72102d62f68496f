/** How a session's MCP servers are run (servers.ts): the limits of the environment and what a session or a test injects. */
import type { connectServer, McpConnectOptions } from './connect.js';
import type { connectSdkServer } from './sdk-server.js';

export interface McpServersOptions extends McpConnectOptions {
  /** Characters of tool output the model may receive (MAX_MCP_OUTPUT_TOKENS × 4). */
  maxOutputChars: number;
  /** Interactive sessions do not start project servers the settings have not approved. */
  holdUnapproved: boolean;
  /** Called whenever a server's state changes (the app redraws its list). */
  onChange?: () => void;
  /** Injected in tests. */
  connect?: typeof connectServer;
  connectSdk?: typeof connectSdkServer;
}

/** MCP_TIMEOUT, MCP_TOOL_TIMEOUT (ms) and MAX_MCP_OUTPUT_TOKENS, with Claude Code's defaults. */
export function mcpLimitsFromEnv(env: Record<string, string | undefined>): { timeoutMs: number; toolTimeoutMs: number; maxOutputChars: number } {
  const num = (v: string | undefined, fallback: number) => {
    const n = Number(v);
    return v && Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    timeoutMs: num(env.MCP_TIMEOUT, 30_000),
    toolTimeoutMs: Math.min(num(env.MCP_TOOL_TIMEOUT, 100_000_000), 2_147_000_000),
    maxOutputChars: num(env.MAX_MCP_OUTPUT_TOKENS, 25_000) * 4,
  };
}
