/**
 * An Agent SDK host's in-process MCP server (`createSdkMcpServer`), connected as any other: the same
 * client, lists and connection, over the control transport (control-transport.ts) instead of a
 * process or a URL. Its tools become `mcp__<server>__<tool>` and pass the same gates.
 */
import { connectAndList, connection, isTimeout, newClient, type McpConnectOptions } from './connect.js';
import { ControlTransport, type ControlLink, type SdkServerManifest } from './control-transport.js';
import { mcpSdk } from './sdk-lib.js';
import type { McpConnection } from './types.js';

/** What the session knows of one such server: how to reach it, and its manifest when the host captured one. */
export interface SdkServerEntry {
  name: string;
  link: ControlLink;
  manifest?: SdkServerManifest;
}

export async function connectSdkServer(entry: SdkServerEntry, opts: McpConnectOptions): Promise<McpConnection> {
  const sdk = await mcpSdk();
  const client = newClient(sdk, { ...opts, name: entry.name });
  const transport = new ControlTransport(entry.link, entry.manifest);
  let closing = false;
  const lostListeners: Array<(why: string) => void> = [];
  client.onclose = () => {
    if (!closing) for (const l of lostListeners.splice(0)) l('the SDK host closed the connection');
  };
  const close = async () => {
    closing = true;
    await client.close().catch(() => {});
  };
  try {
    const { lists, initial } = await connectAndList(client, transport, opts.timeoutMs);
    return connection(sdk, client, lists, initial, { toolTimeoutMs: opts.toolTimeoutMs, close, onLost: (l) => void lostListeners.push(l) });
  } catch (err) {
    await close();
    throw new Error(failure(err, opts.timeoutMs));
  }
}

function failure(err: unknown, timeoutMs: number): string {
  const message = err instanceof Error ? err.message : String(err);
  if (isTimeout(err)) {
    return `the SDK host's server did not finish starting within ${Math.round(timeoutMs / 1000)} s (MCP_TIMEOUT)`;
  }
  return message.replace(/^MCP error -?\d+: /, '');
}
