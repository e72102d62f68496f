/**
 * The SDK host's in-process MCP servers (`initialize.sdkMcpServers`, with their manifests when the
 * host captured them): each reached through `mcp_message` requests, and the messages a server sends
 * of its own (an `mcp_message` request from the host) passed to its connection and answered.
 */
import type { ControlLink } from '../mcp/control-transport.js';
import type { SdkServerEntry } from '../mcp/sdk-server.js';
import { ControlError, isObject } from './control-channel.js';
import type { SdkSession } from './session.js';

/** One entry per server; registers the `mcp_message` handler for the servers' own messages. */
export function sdkMcpServers(session: SdkSession): SdkServerEntry[] {
  const names = session.sdkMcpServers;
  if (!names.length) return [];
  const receivers = new Map<string, (message: unknown) => Promise<unknown>>();
  session.channel.onRequest('mcp_message', async (request) => {
    const name = typeof request.server_name === 'string' ? request.server_name : '';
    const receive = receivers.get(name);
    if (!receive) throw new ControlError(`SDK MCP server not found: ${name}`);
    return { mcp_response: await receive(request.message) };
  });
  const manifests = session.sdkMcpServerManifests;
  return names.map((name) => {
    const link: ControlLink = {
      async send(message, signal) {
        const answer = await session.channel.request('mcp_message', { server_name: name, message }, { signal });
        return answer.mcp_response;
      },
      listen: (receive) => void receivers.set(name, receive),
    };
    const m = manifests[name];
    const manifest =
      m && isObject(m.initializeResult)
        ? { initializeResult: m.initializeResult, ...(isObject(m.toolsListResult) ? { toolsListResult: m.toolsListResult } : {}) }
        : undefined;
    return { name, link, ...(manifest ? { manifest } : {}) };
  });
}
