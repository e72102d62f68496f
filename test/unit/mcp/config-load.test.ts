import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpConfig, McpConfigError, type McpConfigInput } from '../../../src/mcp/config.js';

let root: string;
let home: string;
let cwd: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-mcp-config-')));
  home = path.join(root, 'home');
  cwd = path.join(root, 'work', 'repo', 'pkg');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const writeJson = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};

const load = (over: Partial<McpConfigInput> = {}) => loadMcpConfig({ cwd, home, env: {}, cliConfigs: [], strict: false, settings: {}, ...over });

const stdio = (command: string) => ({ command });
const byName = (config: ReturnType<typeof load>) => Object.fromEntries(config.servers.map((s) => [s.name, s]));

describe('loadMcpConfig: sources', () => {
  it('nothing configured: no servers, no warnings', () => {
    expect(load()).toEqual({ servers: [], unapproved: [], disabled: [], warnings: [] });
  });

  it('reads user scope from ~/.claude.json mcpServers and local scope from projects[cwd]', () => {
    const file = path.join(home, '.claude.json');
    writeJson(file, {
      mcpServers: { u: stdio('user-cmd') },
      projects: { [cwd]: { mcpServers: { l: stdio('local-cmd') } }, '/elsewhere': { mcpServers: { other: stdio('x') } } },
    });
    const servers = byName(load());
    expect(Object.keys(servers).sort()).toEqual(['l', 'u']);
    expect(servers.l).toEqual({ name: 'l', scope: 'local', source: file, config: { type: 'stdio', command: 'local-cmd', args: [], env: {} } });
    expect(servers.u).toEqual({ name: 'u', scope: 'user', source: file, config: { type: 'stdio', command: 'user-cmd', args: [], env: {} } });
  });

  it('reads .mcp.json in the cwd as project scope', () => {
    const file = path.join(cwd, '.mcp.json');
    writeJson(file, { mcpServers: { p: { type: 'http', url: 'https://e.com/mcp' } } });
    expect(load({ settings: { enableAllProjectMcpServers: true } }).servers).toEqual([
      { name: 'p', scope: 'project', source: file, config: { type: 'http', url: 'https://e.com/mcp', headers: {} } },
    ]);
  });

  it('reads .mcp.json in parent directories; the nearer file wins a name', () => {
    const far = path.join(root, 'work', '.mcp.json');
    const near = path.join(root, 'work', 'repo', '.mcp.json');
    writeJson(far, { mcpServers: { shared: stdio('far'), onlyFar: stdio('far-only') } });
    writeJson(near, { mcpServers: { shared: stdio('near') } });
    const servers = byName(load());
    expect(servers.shared).toMatchObject({ scope: 'project', source: near, config: { command: 'near' } });
    expect(servers.onlyFar).toMatchObject({ scope: 'project', source: far, config: { command: 'far-only' } });
  });

  it('a bad entry is kept with its error; the others still load', () => {
    writeJson(path.join(home, '.claude.json'), { mcpServers: { good: stdio('ok'), bad: { type: 'ws', url: 'http://x' }, needsVar: stdio('${NOT_SET_VAR}') } });
    const servers = byName(load());
    expect(servers.good?.config).toBeDefined();
    expect(servers.bad).toMatchObject({ scope: 'user', error: '"url" must be a ws:// or wss:// URL, got "http://x"' });
    expect(servers.bad?.config).toBeUndefined();
    expect(servers.needsVar?.error).toBe('environment variable not set: NOT_SET_VAR');
  });

  it('expands variables from input.env', () => {
    writeJson(path.join(home, '.claude.json'), { mcpServers: { s: { command: '${TOOL_BIN}', args: ['${ARG:-d}'] } } });
    expect(load({ env: { TOOL_BIN: '/opt/t' } }).servers[0]?.config).toEqual({ type: 'stdio', command: '/opt/t', args: ['d'], env: {} });
  });

  it('configDir replaces home as the place of .claude.json', () => {
    const configDir = path.join(root, 'cfg');
    writeJson(path.join(home, '.claude.json'), { mcpServers: { fromHome: stdio('h') } });
    writeJson(path.join(configDir, '.claude.json'), { mcpServers: { fromConfigDir: stdio('c') } });
    expect(load({ configDir }).servers.map((s) => [s.name, s.source])).toEqual([['fromConfigDir', path.join(configDir, '.claude.json')]]);
  });
});

describe('loadMcpConfig: precedence', () => {
  it('--mcp-config > local > project > user, the whole entry from the winner', () => {
    writeJson(path.join(home, '.claude.json'), {
      mcpServers: { a: { command: 'user-a', args: ['u'], env: { U: '1' } }, b: stdio('user-b'), c: stdio('user-c'), d: stdio('user-d') },
      projects: { [cwd]: { mcpServers: { a: stdio('local-a'), b: stdio('local-b') } } },
    });
    writeJson(path.join(cwd, '.mcp.json'), { mcpServers: { a: stdio('project-a'), b: stdio('project-b'), c: { command: 'project-c' } } });
    const cli = JSON.stringify({ mcpServers: { a: stdio('cli-a') } });
    const servers = byName(load({ cliConfigs: [cli], settings: { enableAllProjectMcpServers: true } }));
    expect(servers.a).toEqual({ name: 'a', scope: 'dynamic', source: '--mcp-config', config: { type: 'stdio', command: 'cli-a', args: [], env: {} } });
    expect(servers.b).toMatchObject({ scope: 'local', config: { command: 'local-b' } });
    expect(servers.c).toMatchObject({ scope: 'project', config: { command: 'project-c', args: [], env: {} } });
    expect(servers.d).toMatchObject({ scope: 'user', config: { command: 'user-d' } });
  });

  it('a winner with an error is not replaced by a valid entry of a lower scope', () => {
    writeJson(path.join(home, '.claude.json'), { mcpServers: { s: stdio('user-ok') } });
    writeJson(path.join(cwd, '.mcp.json'), { mcpServers: { s: { type: 'bogus' } } });
    const [s] = load({ settings: { enableAllProjectMcpServers: true } }).servers;
    expect(s).toMatchObject({ name: 's', scope: 'project' });
    expect(s?.error).toMatch(/unknown "type"/);
  });

  it('strict mode reads only --mcp-config', () => {
    writeJson(path.join(home, '.claude.json'), { mcpServers: { u: stdio('u') }, projects: { [cwd]: { mcpServers: { l: stdio('l') } } } });
    writeJson(path.join(cwd, '.mcp.json'), { mcpServers: { p: stdio('p') } });
    const cli = JSON.stringify({ mcpServers: { d: stdio('d') } });
    expect(load({ strict: true, cliConfigs: [cli] }).servers.map((s) => s.name)).toEqual(['d']);
    expect(load({ strict: true }).servers).toEqual([]);
  });
});

describe('loadMcpConfig: --mcp-config', () => {
  it('reads a file path relative to the cwd', () => {
    const file = path.join(cwd, 'conf', 'servers.json');
    writeJson(file, { mcpServers: { f: stdio('from-file') } });
    expect(load({ cliConfigs: ['conf/servers.json'] }).servers).toEqual([
      { name: 'f', scope: 'dynamic', source: file, config: { type: 'stdio', command: 'from-file', args: [], env: {} } },
    ]);
  });

  it('reads JSON text, and several values together (the first wins a name)', () => {
    const file = path.join(root, 'abs.json');
    writeJson(file, { mcpServers: { x: stdio('file-x'), y: stdio('file-y') } });
    const servers = byName(load({ cliConfigs: [`  ${JSON.stringify({ mcpServers: { x: stdio('text-x') } })}`, file] }));
    expect(servers.x).toMatchObject({ source: '--mcp-config', config: { command: 'text-x' } });
    expect(servers.y).toMatchObject({ source: file, config: { command: 'file-y' } });
  });

  it('an unreadable file throws McpConfigError naming it', () => {
    const missing = path.join(cwd, 'nope.json');
    expect(() => load({ cliConfigs: ['nope.json'] })).toThrow(McpConfigError);
    expect(() => load({ cliConfigs: ['nope.json'] })).toThrow(`--mcp-config: cannot read ${missing}: ENOENT`);
  });

  it('invalid JSON throws McpConfigError, from text or from a file', () => {
    expect(() => load({ cliConfigs: ['{"mcpServers": '] })).toThrow(McpConfigError);
    expect(() => load({ cliConfigs: ['{"mcpServers": '] })).toThrow(/^--mcp-config: invalid JSON/);
    writeJson(path.join(cwd, 'bad.json'), '{ not json');
    let err: unknown;
    try {
      load({ cliConfigs: ['bad.json'] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(McpConfigError);
    expect((err as Error).message).toContain(`--mcp-config ${path.join(cwd, 'bad.json')}: invalid JSON`);
    expect((err as Error).message).not.toContain('the file is ignored');
  });

  it('a config without an "mcpServers" object throws McpConfigError', () => {
    expect(() => load({ cliConfigs: ['{}'] })).toThrow(new McpConfigError('--mcp-config: needs an "mcpServers" object'));
    expect(() => load({ cliConfigs: ['{"mcpServers": []}'] })).toThrow(McpConfigError);
    writeJson(path.join(cwd, 'arr.json'), '[1, 2]');
    expect(() => load({ cliConfigs: ['arr.json'] })).toThrow(McpConfigError);
  });
});

describe('loadMcpConfig: broken files', () => {
  it('an invalid .mcp.json is a warning, and the other sources still load', () => {
    const file = path.join(cwd, '.mcp.json');
    writeJson(file, '{ "mcpServers": ');
    writeJson(path.join(home, '.claude.json'), { mcpServers: { u: stdio('u') } });
    const config = load();
    expect(config.servers.map((s) => s.name)).toEqual(['u']);
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON`));
  });

  it('an invalid .claude.json that mentions mcpServers is a warning', () => {
    writeJson(path.join(home, '.claude.json'), '{ "mcpServers": { ');
    const config = load();
    expect(config.servers).toEqual([]);
    expect(config.warnings).toEqual([expect.stringContaining('.claude.json: invalid JSON')]);
  });
});

describe('loadMcpConfig: approval and disabling', () => {
  it('project servers not approved by the settings are listed as unapproved but kept', () => {
    writeJson(path.join(cwd, '.mcp.json'), { mcpServers: { p1: stdio('1'), p2: stdio('2') } });
    writeJson(path.join(home, '.claude.json'), { mcpServers: { u: stdio('u') } });
    expect(load().unapproved).toEqual(['p1', 'p2']);
    expect(load().servers.map((s) => s.name)).toEqual(['p1', 'p2', 'u']);
    expect(load({ settings: { enabledMcpjsonServers: ['p2'] } }).unapproved).toEqual(['p1']);
    expect(load({ settings: { enableAllProjectMcpServers: true } }).unapproved).toEqual([]);
  });

  it('servers of other scopes never need approval', () => {
    const cli = JSON.stringify({ mcpServers: { d: stdio('d') } });
    writeJson(path.join(home, '.claude.json'), { mcpServers: { u: stdio('u') }, projects: { [cwd]: { mcpServers: { l: stdio('l') } } } });
    expect(load({ cliConfigs: [cli] }).unapproved).toEqual([]);
  });

  it('disabledMcpjsonServers moves a project server to disabled', () => {
    writeJson(path.join(cwd, '.mcp.json'), { mcpServers: { off: stdio('1'), on: stdio('2') } });
    const config = load({ settings: { disabledMcpjsonServers: ['off'] } });
    expect(config.servers.map((s) => s.name)).toEqual(['on']);
    expect(config.disabled).toEqual([expect.objectContaining({ name: 'off', scope: 'project', source: path.join(cwd, '.mcp.json') })]);
    expect(config.unapproved).toEqual(['on']);
  });

  it('disabledMcpjsonServers does not touch servers of other scopes', () => {
    writeJson(path.join(home, '.claude.json'), { mcpServers: { u: stdio('u') }, projects: { [cwd]: { mcpServers: { l: stdio('l') } } } });
    const cli = JSON.stringify({ mcpServers: { d: stdio('d') } });
    const config = load({ cliConfigs: [cli], settings: { disabledMcpjsonServers: ['u', 'l', 'd'] } });
    expect(config.servers.map((s) => s.name).sort()).toEqual(['d', 'l', 'u']);
    expect(config.disabled).toEqual([]);
  });

  it('turning off the .mcp.json entry lets a user server of the same name run', () => {
    writeJson(path.join(cwd, '.mcp.json'), { mcpServers: { x: stdio('proj-x') } });
    writeJson(path.join(home, '.claude.json'), { mcpServers: { x: stdio('user-x') } });
    const config = load({ settings: { disabledMcpjsonServers: ['x'] } });
    expect(config.servers).toEqual([expect.objectContaining({ name: 'x', scope: 'user', config: expect.objectContaining({ command: 'user-x' }) })]);
    expect(config.disabled).toEqual([]);
  });

  it('a disabled name whose winner is a local server is not disabled', () => {
    writeJson(path.join(cwd, '.mcp.json'), { mcpServers: { s: stdio('project') } });
    writeJson(path.join(home, '.claude.json'), { projects: { [cwd]: { mcpServers: { s: stdio('local') } } } });
    const config = load({ settings: { disabledMcpjsonServers: ['s'] } });
    expect(config.servers).toEqual([expect.objectContaining({ name: 's', scope: 'local' })]);
    expect(config.disabled).toEqual([]);
    expect(config.unapproved).toEqual([]);
  });
});

describe('loadMcpConfig: the allowedMcpServers / deniedMcpServers policy', () => {
  it('turns off denied servers (by name, command or URL pattern) and, with an allow list, everything it does not name', () => {
    writeJson(path.join(cwd, '.mcp.json'), {
      mcpServers: {
        gh: { command: 'npx', args: ['-y', 'gh-mcp'] },
        docs: { type: 'http', url: 'https://mcp.docs.example.com/mcp' },
        other: { type: 'http', url: 'https://evil.example.net/mcp' },
        local: { command: 'node', args: ['server.js'] },
      },
    });
    const denied = load({ settings: { deniedMcpServers: [{ serverName: 'local' }, { serverUrl: 'https://*.example.net/*' }] } });
    expect(denied.servers.map((s) => s.name)).toEqual(['gh', 'docs']);
    expect(denied.disabled.map((s) => [s.name, s.offReason])).toEqual([
      ['other', 'refused by the deniedMcpServers policy'],
      ['local', 'refused by the deniedMcpServers policy'],
    ]);
    const allowed = load({
      settings: {
        allowedMcpServers: [{ serverCommand: ['npx', '-y', 'gh-mcp'] }, { serverUrl: 'https://*.docs.example.com/*' }],
        deniedMcpServers: [{ serverName: 'docs' }],
      },
    });
    expect(allowed.servers.map((s) => s.name)).toEqual(['gh']);
    expect(Object.fromEntries(allowed.disabled.map((s) => [s.name, s.offReason]))).toEqual({
      docs: 'refused by the deniedMcpServers policy',
      other: 'not in the allowedMcpServers policy',
      local: 'not in the allowedMcpServers policy',
    });
    expect(load({ settings: { allowedMcpServers: [] } }).servers).toEqual([]);
  });
});
