/**
 * The SDK's requests about MCP servers: their status, reconnecting one, turning one off or on,
 * reading a resource, and mcp_set_servers (the servers the SDK manages, added and removed; the
 * settings' server policy applies to them as to any).
 */
import { policyRefusal, serverEntry, type McpServerEntry } from '../mcp/config.js';
import type { McpServerState } from '../mcp/servers.js';
import { errorMessage } from '../base/errors.js';
import { ControlError, isObject, type ControlPayload } from './control-channel.js';
import type { SdkContext } from './context.js';

/** Where a server the SDK set comes from (McpServerState.source). */
const SDK_SOURCE = 'the Agent SDK host (mcp_set_servers)';

export function registerMcpRequests(ctx: SdkContext): void {
  const ch = ctx.session.channel;
  ch.onRequest('mcp_status', () => ({ mcpServers: mcpStatusList(ctx) }));
  ch.onRequest('mcp_reconnect', async (req) => {
    await servers(ctx).reconnectServer(serverName(req));
    ctx.mcp.refreshTools();
    return {};
  });
  ch.onRequest('mcp_toggle', async (req) => {
    if (typeof req.enabled !== 'boolean') throw new ControlError('mcp_toggle needs enabled: true or false', 'invalid_request');
    await servers(ctx).setEnabled(serverName(req), req.enabled);
    ctx.mcp.refreshTools();
    return {};
  });
  ch.onRequest('mcp_read_resource', async (req, signal) => {
    if (typeof req.uri !== 'string') throw new ControlError('mcp_read_resource needs a uri', 'invalid_request');
    return { contents: await servers(ctx).readResource(serverName(req), req.uri, signal) };
  });
  ch.onRequest('mcp_set_servers', (req) => setServers(ctx, req.servers));
}

/** The servers as McpServerStatus: Claude Code's statuses (a server waiting for approval is pending). */
export function mcpStatusList(ctx: SdkContext): ControlPayload[] {
  return (ctx.mcp.servers?.list() ?? []).map((s) => statusOf(s));
}

function statusOf(s: McpServerState): ControlPayload {
  const status = s.status === 'needs-approval' ? 'pending' : s.status;
  return {
    name: s.name,
    status,
    ...(s.error && status !== 'connected' ? { error: s.error } : {}),
    scope: s.scope,
    source: s.source,
    tools: s.toolNames.map((name) => ({ name })),
  };
}

function servers(ctx: SdkContext) {
  const s = ctx.mcp.servers;
  if (!s) throw new ControlError('this session has no MCP servers', 'not_found');
  return s;
}

function serverName(req: ControlPayload): string {
  const name = req.serverName ?? req.server_name;
  if (typeof name !== 'string' || !name) throw new ControlError('a serverName is needed', 'invalid_request');
  return name;
}

/** Servers the SDK set earlier (name → config): the next mcp_set_servers replaces exactly these. */
const fromSdk = new WeakMap<SdkContext, Map<string, string>>();

async function setServers(ctx: SdkContext, given: unknown): Promise<ControlPayload> {
  if (!isObject(given)) throw new ControlError('mcp_set_servers needs servers: an object of servers by name', 'invalid_request');
  const mine = fromSdk.get(ctx) ?? new Map<string, string>();
  fromSdk.set(ctx, mine);
  const { entries, errors } = sdkEntries(ctx, given);
  const all = ctx.mcp.ensure();
  const wanted = new Map(entries.map((e) => [e.name, JSON.stringify(e.config)]));
  const removed = [...mine.keys()].filter((n) => !wanted.has(n));
  for (const n of removed) {
    await all.removeServer(n);
    mine.delete(n);
  }
  // A server already there with the same config stays connected.
  const changed = entries.filter((e) => mine.get(e.name) !== wanted.get(e.name));
  const added = changed.filter((e) => !mine.has(e.name)).map((e) => e.name);
  try {
    await all.addServers(changed);
  } catch (err) {
    throw new ControlError(`the servers could not be started: ${errorMessage(err)}`, 'mcp_error');
  }
  for (const e of changed) mine.set(e.name, wanted.get(e.name)!);
  for (const s of all.list()) if (mine.has(s.name) && s.status === 'failed') errors[s.name] = s.error ?? 'failed to connect';
  ctx.mcp.refreshTools();
  return { added, removed, errors };
}

/** The servers given, checked one by one (in-process "sdk" servers are the SDK's own, reached through mcp_message). */
function sdkEntries(ctx: SdkContext, given: Record<string, unknown>): { entries: McpServerEntry[]; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const entries: McpServerEntry[] = [];
  for (const [name, raw] of Object.entries(given)) {
    if (isObject(raw) && raw.type === 'sdk') continue;
    const entry = serverEntry(name, raw, 'dynamic', SDK_SOURCE, ctx.base.env);
    if (entry.error !== undefined) {
      errors[name] = entry.error;
      continue;
    }
    const refused = policyRefusal(entry, ctx.base.settings);
    if (refused) errors[name] = refused;
    else entries.push(entry);
  }
  return { entries, errors };
}
