/** /mcp: the session's MCP servers, their state, tools and resources; `/mcp <server>` lists that server's tools. */
import type { McpServerState } from '../../mcp/servers.js';
import type { SlashCommand } from './types.js';

const MARK: Record<McpServerState['status'], string> = {
  connected: '✓',
  failed: '✗',
  pending: '…',
  'needs-approval': '?',
  disabled: '-',
};

export const mcpCommand: SlashCommand = {
  name: 'mcp',
  description: 'MCP servers: state and tools',
  argumentHint: '[server]',
  source: 'builtin',
  run(args, s) {
    const servers = s.mcpServers ?? [];
    if (!servers.length) return { kind: 'info', text: 'No MCP servers. Add them to .mcp.json in the project, or pass --mcp-config.' };
    const name = args.trim();
    if (name) {
      const one = servers.find((x) => x.name === name);
      if (!one) return { kind: 'info', tone: 'warning', text: `No MCP server named "${name}". Servers: ${servers.map((x) => x.name).join(', ')}` };
      return { kind: 'info', text: serverDetail(one) };
    }
    const width = Math.max(...servers.map((x) => x.name.length));
    const lines = ['MCP servers'];
    for (const x of servers) {
      const tools = x.status === 'connected' ? `  ${counts(x)}` : '';
      lines.push(`  ${MARK[x.status]} ${x.name.padEnd(width)}  ${x.status}${tools}  (${x.scope}: ${x.source})`);
      if (x.error) lines.push(`    ${x.error}`);
    }
    lines.push('`/mcp <server>` lists its tools.');
    return { kind: 'info', text: lines.join('\n') };
  },
};

function serverDetail(x: McpServerState): string {
  const lines = [`${x.name}: ${x.status}`, `  ${x.transport ?? 'stdio'}: ${x.detail ?? '(not configured)'}`, `  from ${x.scope} scope: ${x.source}`];
  if (x.error) lines.push(`  ${x.error}`);
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
