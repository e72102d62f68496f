import { describe, expect, it } from 'vitest';
import type { McpServerState } from '../../src/mcp/servers.js';
import { mcpCommand } from '../../src/ui/commands/mcp.js';
import type { SessionControl } from '../../src/ui/commands/types.js';

const server = (name: string, over: Partial<McpServerState> = {}): McpServerState => ({
  name,
  scope: 'project',
  source: '/p/.mcp.json',
  transport: 'http',
  detail: `https://${name}.example.com/mcp`,
  status: 'connected',
  toolNames: [],
  skipped: [],
  ...over,
});

function session(servers: McpServerState[], over: Partial<SessionControl> = {}): SessionControl {
  return { mcpServers: servers, ...over } as unknown as SessionControl;
}

describe('/mcp and signing in', () => {
  it('lists a server that needs authentication with the way to sign in', async () => {
    const r = await mcpCommand.run('', session([server('linear', { status: 'needs-auth', error: 'https://linear.example.com/mcp needs authentication' })]));
    expect(r).toMatchObject({ kind: 'info' });
    const text = (r as { text: string }).text;
    expect(text).toMatch(/! linear\s+needs authentication/);
    expect(text).toContain('/mcp login linear to sign in');
    const detail = (await mcpCommand.run('linear', session([server('linear', { status: 'connected', signedIn: true })]))) as { text: string };
    expect(detail.text).toContain('signed in (OAuth tokens stored): /mcp logout linear clears them');
  });

  it('/mcp login shows the URL to open; a sign-in that cannot start says why', async () => {
    const asked: string[] = [];
    const s = session([server('linear', { status: 'needs-auth' })], {
      mcpSignIn: async (name) => {
        asked.push(name);
        return { url: 'https://auth.example.com/authorize?x=1' };
      },
    });
    const r = (await mcpCommand.run('login linear', s)) as { text: string };
    expect(asked).toEqual(['linear']);
    expect(r.text).toContain('Sign in to MCP server "linear": open this URL in your browser');
    expect(r.text).toContain('\nhttps://auth.example.com/authorize?x=1\n');
    const failed = await mcpCommand.run('login linear', session([server('linear')], { mcpSignIn: async () => ({ error: 'cannot reach it' }) }));
    expect(failed).toMatchObject({ tone: 'warning', text: 'Cannot sign in to MCP server "linear": cannot reach it' });
  });

  it('/mcp logout clears; stdio servers and unknown names are refused', async () => {
    const s = session([server('linear'), server('local', { transport: 'stdio', detail: 'node srv.js' })], {
      mcpSignOut: async (name) => ({ text: `Cleared ${name}.` }),
    });
    expect(await mcpCommand.run('logout linear', s)).toMatchObject({ text: 'Cleared linear.' });
    expect(await mcpCommand.run('login local', s)).toMatchObject({ tone: 'warning', text: expect.stringContaining('not an http or sse server') });
    expect(await mcpCommand.run('logout nobody', s)).toMatchObject({ tone: 'warning', text: expect.stringContaining('No MCP server named "nobody"') });
    expect(await mcpCommand.run('login', s)).toMatchObject({ tone: 'warning', text: 'Usage: /mcp login <server>' });
  });

  it('a server named like a verb is still shown by name', async () => {
    const r = (await mcpCommand.run('login', session([server('login')]))) as { text: string };
    expect(r.text.startsWith('login: connected')).toBe(true);
  });
});
