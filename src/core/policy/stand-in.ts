/**
 * An MCP tool that a recorded call names but no server here offers now: judged as an MCP tool of
 * that name with any input (its permission rules, its path fields against deny rules, and the ask
 * every MCP tool makes by default). It can never run.
 */
import type { Tool } from '../../base/tool.js';
import { mcpTool } from '../../mcp/tool.js';

const notConnected = {
  callTool: () => Promise.reject(new Error('not connected: a stand-in for judging recorded calls')),
  validator: async () => undefined,
};

/** Stand-ins for the `mcp__<server>__<tool>` names among `names` that `tools` lacks. */
export function mcpStandIns(names: Iterable<string>, tools: readonly Tool[]): Tool[] {
  const have = new Set(tools.map((t) => t.name));
  const out: Tool[] = [];
  for (const name of new Set(names)) {
    const m = /^mcp__(.+?)__(.+)$/.exec(name);
    if (!m || have.has(name)) continue;
    const tool = mcpTool(m[1]!, { name: m[2]!, inputSchema: { type: 'object' } }, notConnected, { maxOutputChars: 0 });
    // The server and tool parts as recorded (mcpTool would normalise them again).
    out.push(Object.assign(Object.create(tool), { name }));
    have.add(name);
  }
  return out;
}
