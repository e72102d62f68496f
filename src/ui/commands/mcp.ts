/**
 * /mcp: the session's MCP servers, their state, tools and resources; `/mcp <server>` lists that
 * server's tools; `/mcp login <server>` signs in to a remote server that needs authentication (the
 * URL to open is shown, and the browser tried); `/mcp logout <server>` clears its stored authentication;
 * `/mcp reconnect <server>` connects it again; `/mcp disable <server>` turns it off (its tools go) and
 * `/mcp enable <server>` on again, both kept for the next start (settings/mcp-toggle.ts).
 */
import type { McpServerState } from '../../mcp/servers.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

const MARK: Record<McpServerState['status'], string> = {
  connected: '✓',
  failed: '✗',
  'needs-auth': '!',
  pending: '…',
  'needs-approval': '?',
  disabled: '-',
};

const LABEL: Partial<Record<McpServerState['status'], string>> = { 'needs-auth': 'needs authentication' };

export const mcpCommand: SlashCommand = {
  name: 'mcp',
  description: 'MCP servers: state, tools and sign-in',
  argumentHint: '[server | login | logout | reconnect | enable | disable <server>]',
  source: 'builtin',
  run(args, s) {
    const servers = s.mcpServers ?? [];
    if (!servers.length) return { kind: 'info', text: 'No MCP servers. Add them to .mcp.json in the project, or pass --mcp-config.' };
    const [first = '', second, ...rest] = args.trim().split(/\s+/).filter(Boolean);
    const verb = first === 'login' || first === 'logout' ? first : undefined;
    if (verb && second && !rest.length) return verb === 'login' ? login(second, s) : logout(second, s);
    if ((first === 'reconnect' || first === 'enable' || first === 'disable') && second && !rest.length) return control(first, second, s);
    const name = args.trim();
    if (name) {
      const one = servers.find((x) => x.name === name);
      if (!one)
        return {
          kind: 'info',
          tone: 'warning',
          text: verb ? `Usage: /mcp ${verb} <server>` : `No MCP server named "${name}". Servers: ${servers.map((x) => x.name).join(', ')}`,
        };
      return { kind: 'info', text: serverDetail(one) };
    }
    const width = Math.max(...servers.map((x) => x.name.length));
    const lines = ['MCP servers'];
    for (const x of servers) {
      const tools = x.status === 'connected' ? `  ${counts(x)}` : '';
      lines.push(`  ${MARK[x.status]} ${x.name.padEnd(width)}  ${LABEL[x.status] ?? x.status}${tools}  (${x.scope}: ${x.source})`);
      if (x.status === 'needs-auth') lines.push(`    /mcp login ${x.name} to sign in`);
      else if (x.error) lines.push(`    ${x.error}`);
    }
    lines.push(
      '`/mcp <server>` lists its tools; `/mcp login <server>` signs in to a server; `/mcp logout <server>` clears its authentication; `/mcp reconnect|enable|disable <server>` connects it again, turns it on or off.',
    );
    return { kind: 'info', text: lines.join('\n') };
  },
};

async function control(verb: 'reconnect' | 'enable' | 'disable', name: string, s: SessionControl): Promise<CommandResult> {
  const servers = s.mcpServers ?? [];
  if (!servers.some((x) => x.name === name))
    return { kind: 'info', tone: 'warning', text: `No MCP server named "${name}". Servers: ${servers.map((x) => x.name).join(', ')}` };
  if (!s.mcpControl) return { kind: 'info', tone: 'warning', text: `/mcp ${verb} is not available here.` };
  const r = await s.mcpControl(name, verb);
  return 'error' in r ? { kind: 'info', tone: 'warning', text: `Cannot ${verb} MCP server "${name}": ${r.error}` } : { kind: 'info', text: r.text };
}

async function login(name: string, s: SessionControl): Promise<CommandResult> {
  const known = remoteServer(name, s);
  if (typeof known === 'string') return { kind: 'info', tone: 'warning', text: known };
  if (!s.mcpSignIn) return { kind: 'info', tone: 'warning', text: 'Signing in is not available here.' };
  const r = await s.mcpSignIn(name);
  if ('error' in r) return { kind: 'info', tone: 'warning', text: `Cannot sign in to MCP server "${name}": ${r.error}` };
  if ('done' in r) return { kind: 'info', text: r.done };
  return {
    kind: 'info',
    text: `Sign in to MCP server "${name}": open this URL in your browser (wicket tried to open it):\n${r.url}\nWaiting for the browser to come back; the server connects once you have signed in.`,
  };
}

async function logout(name: string, s: SessionControl): Promise<CommandResult> {
  const known = remoteServer(name, s);
  if (typeof known === 'string') return { kind: 'info', tone: 'warning', text: known };
  if (!s.mcpSignOut) return { kind: 'info', tone: 'warning', text: 'Clearing authentication is not available here.' };
  const r = await s.mcpSignOut(name);
  return 'error' in r ? { kind: 'info', tone: 'warning', text: `Cannot clear the authentication of "${name}": ${r.error}` } : { kind: 'info', text: r.text };
}

/** The named server when it is an http or sse one, else why it cannot sign in. */
function remoteServer(name: string, s: SessionControl): McpServerState | string {
  const servers = s.mcpServers ?? [];
  const one = servers.find((x) => x.name === name);
  if (!one) return `No MCP server named "${name}". Servers: ${servers.map((x) => x.name).join(', ')}`;
  if (one.transport !== 'http' && one.transport !== 'sse') return `MCP server "${name}" is not an http or sse server: only those sign in with OAuth.`;
  return one;
}

function serverDetail(x: McpServerState): string {
  const lines = [
    `${x.name}: ${LABEL[x.status] ?? x.status}`,
    `  ${x.transport ?? 'stdio'}: ${x.detail ?? '(not configured)'}`,
    `  from ${x.scope} scope: ${x.source}`,
  ];
  if (x.error) lines.push(`  ${x.error}`);
  if (x.status === 'needs-auth') lines.push(`  /mcp login ${x.name} to sign in`);
  if (x.signedIn) lines.push(`  signed in (OAuth tokens stored): /mcp logout ${x.name} clears them`);
  if (x.status === 'connected') lines.push(`  ${counts(x)}`);
  if (x.toolNames.length) lines.push('  Tools:', ...x.toolNames.map((t) => `    ${t}`));
  if (x.skipped.length) lines.push('  Left out (name over 64 characters, or taken by another server):', ...x.skipped.map((t) => `    ${t}`));
  return lines.join('\n');
}

/** "3 tools", or "3 tools, 2 resources" for a server that offers resources. */
function counts(x: McpServerState): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [plural(x.toolNames.length, 'tool'), ...(x.resourceCount === undefined ? [] : [plural(x.resourceCount, 'resource')])].join(', ');
}
