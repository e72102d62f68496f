/**
 * /mcp enable and disable last past the session, kept where Claude Code keeps them: a .mcp.json server
 * in settings.local.json's enabledMcpjsonServers / disabledMcpjsonServers, any other in
 * ~/.claude.json's projects["<folder>"].disabledMcpServers; the next start honours them, and a server
 * turned off that way can be turned on again (a policy's refusal cannot).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyRules } from '../../../src/base/permission-types.js';
import { loadMcpConfig } from '../../../src/mcp/config.js';
import { McpServers, type McpServersOptions } from '../../../src/mcp/servers.js';
import type { McpConnection } from '../../../src/mcp/types.js';
import { McpSession } from '../../../src/ui/mcp-session.js';

let home: string;
let cwd: string;
beforeEach(() => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-mcp-toggle-')));
  home = path.join(root, 'home');
  cwd = path.join(root, 'proj');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(cwd, '.claude'), { recursive: true });
});
afterEach(() => rmSync(path.dirname(home), { recursive: true, force: true }));

const readJson = (f: string) => JSON.parse(readFileSync(f, 'utf8'));
const globalFile = () => path.join(home, '.claude.json');
const localFile = () => path.join(cwd, '.claude', 'settings.local.json');

function connection(): McpConnection {
  return {
    tools: [{ name: 'ping', inputSchema: { type: 'object' } }],
    prompts: [],
    resources: [],
    hasResources: false,
    listResources: async () => [],
    readResource: async () => [],
    onListChanged: () => undefined,
    getPrompt: async () => '',
    callTool: async () => ({ content: [] }),
    validator: async () => undefined,
    onLost: () => undefined,
    close: async () => undefined,
  } as unknown as McpConnection;
}

/** One start of the session: the servers as the files say, each connecting to a fake. */
function start(settings: Record<string, unknown> = {}) {
  const config = loadMcpConfig({ cwd, home, env: {}, cliConfigs: [], strict: false, settings });
  const opts: McpServersOptions = {
    projectRoot: cwd,
    env: {},
    timeoutMs: 1000,
    toolTimeoutMs: 1000,
    version: '0',
    maxOutputChars: 1000,
    holdUnapproved: false,
    connect: async () => connection(),
  };
  const servers = new McpServers(config, opts);
  const agent = { tools: [], system: [], permission: { mode: 'default' as const, rules: emptyRules() }, env: {}, homeDir: home };
  const session = new McpSession(servers, agent, cwd);
  const status = (name: string) => servers.list().find((s) => s.name === name)?.status;
  return { session, status, config };
}

describe('/mcp enable and disable, kept for the next start', () => {
  it('a user server: disabledMcpServers of the project in ~/.claude.json, other keys kept; enable takes it out', async () => {
    writeFileSync(globalFile(), JSON.stringify({ mcpServers: { u: { command: 'u' } }, projects: { [cwd]: { hasTrustDialogAccepted: true } } }));
    const first = start();
    await first.session.ready();
    expect(first.status('u')).toBe('connected');
    expect(await first.session.control('u', 'disable')).toEqual({ text: `MCP server "u" turned off; saved in ${globalFile()}.` });
    expect(readJson(globalFile()).projects[cwd]).toEqual({ hasTrustDialogAccepted: true, disabledMcpServers: ['u'] });
    expect(readJson(globalFile()).mcpServers.u).toEqual({ command: 'u' });

    const second = start();
    await second.session.ready();
    expect(second.status('u')).toBe('disabled');
    expect(second.config.disabled[0]).toMatchObject({ name: 'u', userOff: true });
    expect(await second.session.control('u', 'enable')).toMatchObject({ text: expect.stringContaining('turned on (1 tool); saved in') });
    expect(second.status('u')).toBe('connected');
    expect(readJson(globalFile()).projects[cwd].disabledMcpServers).toEqual([]);
  });

  it('a .mcp.json server: disabledMcpjsonServers / enabledMcpjsonServers of settings.local.json', async () => {
    writeFileSync(path.join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { p: { command: 'p' } } }));
    writeFileSync(localFile(), '{\n  // mine\n  "enabledMcpjsonServers": ["p"]\n}\n');
    const first = start({ enabledMcpjsonServers: ['p'] });
    await first.session.ready();
    expect(first.status('p')).toBe('connected');
    await first.session.control('p', 'disable');
    expect(readFileSync(localFile(), 'utf8')).toContain('// mine');
    const local = () => JSON.parse(readFileSync(localFile(), 'utf8').replace('// mine', ''));
    expect(local()).toEqual({ enabledMcpjsonServers: [], disabledMcpjsonServers: ['p'] });

    const second = start(local());
    await second.session.ready();
    expect(second.status('p')).toBe('disabled');
    await second.session.control('p', 'enable');
    expect(second.status('p')).toBe('connected');
    expect(local()).toEqual({ enabledMcpjsonServers: ['p'], disabledMcpjsonServers: [] });
  });

  it('a server the policy refuses stays off after /mcp enable', async () => {
    writeFileSync(globalFile(), JSON.stringify({ mcpServers: { u: { command: 'u' } } }));
    const s = start({ deniedMcpServers: [{ serverName: 'u' }] });
    await s.session.ready();
    expect(await s.session.control('u', 'enable')).toEqual({ error: 'MCP server "u" did not connect: refused by the deniedMcpServers policy' });
    expect(s.status('u')).toBe('disabled');
    expect(readJson(globalFile()).projects).toBeUndefined();
  });
});
