/**
 * The SDK host's guards that travel in its `initialize` request, made into the session's parts:
 * its hook callbacks as matcher groups whose handlers are `hook_callback` requests, and its
 * in-process MCP servers as servers whose transport is `mcp_message` requests (both ways: the
 * messages a server sends of its own are answered here). A request that cannot reach the host
 * (its input ended) counts as undelivered, which a hook callback turns into a block.
 */
import type { HookGroup } from '../base/hook-config.js';
import { callbackGroups } from '../hooks/callback-groups.js';
import { HookCallbackUndelivered, type HookCallbackRunner } from '../hooks/run-callback.js';
import type { ControlLink } from '../mcp/control-transport.js';
import type { SdkServerEntry } from '../mcp/sdk-server.js';
import { ControlError, isObject, type ControlChannel } from './control-channel.js';
import type { SdkSession } from './session.js';

export interface SdkGuards {
  /** The host's hook callbacks, as matcher groups (source `sdk`) to run beside the settings' hooks. */
  hookGroups: HookGroup[];
  /** Delivers them (`hook_callback`). */
  hookCallback: HookCallbackRunner;
  /** The host's in-process MCP servers, each reached through `mcp_message`. */
  mcpServers: SdkServerEntry[];
  /** What in `initialize` could not be used. */
  warnings: string[];
}

export function sdkGuards(session: SdkSession): SdkGuards {
  const { groups, warnings } = callbackGroups(session.init?.hooks);
  return { hookGroups: groups, hookCallback: hookCallbackRunner(session.channel), mcpServers: sdkMcpServers(session), warnings };
}

export function hookCallbackRunner(channel: ControlChannel): HookCallbackRunner {
  return async (r, signal) => {
    if (channel.closed) throw new HookCallbackUndelivered('the SDK host is gone (its input ended)');
    try {
      return await channel.request('hook_callback', { callback_id: r.callbackId, input: r.input, tool_use_id: r.toolUseId }, { signal });
    } catch (err) {
      if (!signal.aborted && channel.closed) throw new HookCallbackUndelivered(err instanceof Error ? err.message : String(err));
      throw err;
    }
  };
}

/**
 * One entry per `initialize.sdkMcpServers` name, with its manifest when the host captured one.
 * Registers the `mcp_message` handler that passes the servers' own messages to their connections.
 */
function sdkMcpServers(session: SdkSession): SdkServerEntry[] {
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
