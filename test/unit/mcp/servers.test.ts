import { describe, expect, it } from 'vitest';
import type { McpConfig, McpServerEntry, McpTransportConfig } from '../../../src/mcp/config.js';
import type { McpConnection, McpListKind, McpResourceInfo, McpToolInfo } from '../../../src/mcp/types.js';
import { McpServers, mcpLimitsFromEnv, type McpServersOptions } from '../../../src/mcp/servers.js';

interface FakeConnection extends McpConnection {
  closed: number;
  lose(why: string): void;
  /** As the connection does once a list the server said changed was listed again. */
  changed(kind: McpListKind): void;
}

function fakeConnection(toolNames: string[], instructions?: string, prompts: FakeConnection['prompts'] = [], resources?: McpResourceInfo[]): FakeConnection {
  const listeners: Array<(why: string) => void> = [];
  const listChanged: Array<(kind: McpListKind) => void> = [];
  const conn: FakeConnection = {
    tools: toolNames.map((name): McpToolInfo => ({ name, inputSchema: { type: 'object' } })),
    prompts,
    resources: resources ?? [],
    hasResources: resources !== undefined,
    listResources: async () => conn.resources,
    readResource: async (uri) => [{ uri, mimeType: 'text/plain', text: `contents of ${uri}` }],
    onListChanged: (l) => void listChanged.push(l),
    changed: (kind) => {
      for (const l of listChanged) l(kind);
    },
    getPrompt: async (name, args) => `prompt ${name} with ${JSON.stringify(args)}`,
    instructions,
    closed: 0,
    callTool: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    validator: async () => undefined,
    onLost: (l) => void listeners.push(l),
    close: async () => {
      conn.closed++;
    },
    lose: (why) => {
      for (const l of listeners.splice(0)) l(why);
    },
  };
  return conn;
}

const stdio = (command: string): McpTransportConfig => ({ type: 'stdio', command, args: [], env: {} });

function entry(name: string, over: Partial<McpServerEntry> = {}): McpServerEntry {
  return { name, scope: 'user', source: '/home/.claude.json', config: stdio(name), ...over };
}

function config(servers: McpServerEntry[], over: Partial<McpConfig> = {}): McpConfig {
  return { servers, unapproved: [], disabled: [], warnings: [], ...over };
}

/** A connect function serving fixed outcomes by command (each server's command is its name). */
function connector(outcomes: Record<string, FakeConnection | Error | Promise<FakeConnection>>) {
  const started: string[] = [];
  const connect: NonNullable<McpServersOptions['connect']> = async (cfg) => {
    const key = cfg.type === 'stdio' ? cfg.command : cfg.url;
    started.push(key);
    const out = outcomes[key];
    if (!out) throw new Error(`no fake for ${key}`);
    if (out instanceof Error) throw out;
    return out;
  };
  return { connect, started };
}

function options(connect: McpServersOptions['connect'], over: Partial<McpServersOptions> = {}): McpServersOptions {
  return { projectRoot: '/p', env: {}, timeoutMs: 1000, toolTimeoutMs: 1000, version: '0.0.0', maxOutputChars: 1000, holdUnapproved: false, connect, ...over };
}

function deferred() {
  let resolve!: (c: FakeConnection) => void;
  const promise = new Promise<FakeConnection>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

const statuses = (s: McpServers) => Object.fromEntries(s.list().map((x) => [x.name, x.status]));

describe('McpServers: statuses', () => {
  it('starts pending, then each server is connected or failed with the error message', async () => {
    const a = fakeConnection(['read']);
    const { connect, started } = connector({ a, b: new Error('cannot start "b": command not found') });
    let changes = 0;
    const servers = new McpServers(config([entry('a'), entry('b')]), options(connect, { onChange: () => changes++ }));
    expect(servers.size).toBe(2);
    expect(statuses(servers)).toEqual({ a: 'pending', b: 'pending' });
    await servers.start();
    expect(started.sort()).toEqual(['a', 'b']);
    expect(statuses(servers)).toEqual({ a: 'connected', b: 'failed' });
    const b = servers.list().find((s) => s.name === 'b');
    expect(b).toMatchObject({ error: 'cannot start "b": command not found', toolNames: [], transport: 'stdio', scope: 'user', source: '/home/.claude.json' });
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__a__read']);
    expect(changes).toBeGreaterThanOrEqual(4);
  });

  it('an entry with a config error is failed from the start and never connected', async () => {
    const { connect, started } = connector({});
    const servers = new McpServers(
      config([entry('bad', { config: undefined, error: '"command" is required (a string) for a stdio server' })]),
      options(connect),
    );
    expect(servers.list()).toEqual([
      expect.objectContaining({
        name: 'bad',
        scope: 'user',
        transport: undefined,
        status: 'failed',
        error: '"command" is required (a string) for a stdio server',
        toolNames: [],
        skipped: [],
      }),
    ]);
    await servers.start();
    await servers.start(['bad']);
    expect(started).toEqual([]);
    expect(statuses(servers)).toEqual({ bad: 'failed' });
  });

  it('disabled project servers are listed as disabled and never started', async () => {
    const { connect, started } = connector({ off: fakeConnection([]) });
    const servers = new McpServers(
      config([], { disabled: [{ name: 'off', scope: 'project', source: '/p/.mcp.json', config: { type: 'stdio', command: 'off', args: [], env: {} } }] }),
      options(connect),
    );
    expect(servers.list()).toEqual([
      expect.objectContaining({ name: 'off', scope: 'project', source: '/p/.mcp.json', status: 'disabled', error: 'turned off by disabledMcpjsonServers' }),
    ]);
    await servers.start(['off']);
    expect(started).toEqual([]);
  });

  it('replaceScope swaps one scope’s servers: a kept one stays connected, a gone or changed one is closed, a new one starts', async () => {
    const [keep, gone, changed, fresh, changedNow] = ['keep', 'gone', 'changed', 'fresh', 'changed2'].map((n) => fakeConnection([`${n}_tool`]));
    const { connect, started } = connector({ keep: keep!, gone: gone!, changed: changed!, fresh: fresh!, changed2: changedNow!, user: fakeConnection(['u']) });
    const plugin = (name: string, command = name) => entry(name, { scope: 'plugin', config: stdio(command) });
    const servers = new McpServers(config([entry('user'), plugin('keep'), plugin('gone'), plugin('changed')]), options(connect));
    await servers.start();
    const result = await servers.replaceScope('plugin', { servers: [plugin('keep'), plugin('changed', 'changed2'), plugin('fresh')], disabled: [] });
    expect(result).toEqual({ added: ['changed', 'fresh'], removed: ['gone', 'changed'] });
    expect([keep!.closed, gone!.closed, changed!.closed]).toEqual([0, 1, 1]);
    expect(started).toEqual(['user', 'keep', 'gone', 'changed', 'changed2', 'fresh']);
    expect(servers.list().map((s) => [s.name, s.status])).toEqual([
      ['user', 'connected'],
      ['keep', 'connected'],
      ['changed', 'connected'],
      ['fresh', 'connected'],
    ]);
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__user__u', 'mcp__keep__keep_tool', 'mcp__changed__changed2_tool', 'mcp__fresh__fresh_tool']);
  });

  it('servers added mid-session keep alwaysLoad as those set up at start do; a server added again without it is deferred', async () => {
    const { connect } = connector({ start: fakeConnection(['s']), late: fakeConnection(['l']), plain: fakeConnection(['p']) });
    const servers = new McpServers(config([entry('start', { alwaysLoad: true })]), options(connect));
    await servers.start();
    await servers.addServers([entry('late', { scope: 'dynamic', alwaysLoad: true }), entry('plain', { scope: 'dynamic' })]);
    const deferred = () => Object.fromEntries(servers.tools().map((t) => [t.name, t.shouldDefer]));
    expect(deferred()).toEqual({ mcp__start__s: false, mcp__late__l: false, mcp__plain__p: true });
    await servers.addServers([entry('late', { scope: 'dynamic' })]);
    expect(deferred()).toEqual({ mcp__start__s: false, mcp__plain__p: true, mcp__late__l: true });
  });

  it('a server that failed can be started again by name', async () => {
    const outcomes: Record<string, FakeConnection | Error> = { a: new Error('refused') };
    const { connect } = connector(outcomes);
    const servers = new McpServers(config([entry('a')]), options(connect));
    await servers.start();
    expect(statuses(servers)).toEqual({ a: 'failed' });
    outcomes.a = fakeConnection(['t']);
    await servers.start(['a']);
    expect(servers.list()[0]).toMatchObject({ status: 'connected', error: undefined, toolNames: ['mcp__a__t'] });
  });
});

describe("McpServers: the Agent SDK host's in-process servers", () => {
  it('start with the others, through their own link, in place of a configured server of the same name', async () => {
    const { connect, started } = connector({ a: fakeConnection(['read']) });
    const viaSdk: string[] = [];
    const connectSdk: NonNullable<McpServersOptions['connectSdk']> = async (e) => (viaSdk.push(e.name), fakeConnection(['add']));
    const servers = new McpServers(config([entry('a'), entry('calc')]), options(connect, { connectSdk }));
    const link = { send: async () => undefined };
    expect(
      servers.addSdkServers([
        { name: 'calc', link },
        { name: 'other', link },
      ]),
    ).toEqual(['calc']);
    await servers.start();
    expect(started).toEqual(['a']);
    expect(viaSdk.sort()).toEqual(['calc', 'other']);
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__a__read', 'mcp__calc__add', 'mcp__other__add']);
    expect(servers.list().find((s) => s.name === 'calc')).toMatchObject({ scope: 'sdk', source: 'sdk', status: 'connected' });
  });
});

describe('McpServers: approval', () => {
  const cfg = () => config([entry('proj', { scope: 'project', source: '/p/.mcp.json' }), entry('user')], { unapproved: ['proj'] });

  it('holdUnapproved leaves unapproved project servers waiting until they are started by name', async () => {
    const { connect, started } = connector({ proj: fakeConnection(['p']), user: fakeConnection(['u']) });
    const servers = new McpServers(cfg(), options(connect, { holdUnapproved: true }));
    expect(statuses(servers)).toEqual({ proj: 'needs-approval', user: 'pending' });
    await servers.start();
    expect(started).toEqual(['user']);
    expect(statuses(servers)).toEqual({ proj: 'needs-approval', user: 'connected' });
    await servers.start(['proj']);
    expect(started).toEqual(['user', 'proj']);
    expect(statuses(servers)).toEqual({ proj: 'connected', user: 'connected' });
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__proj__p', 'mcp__user__u']);
  });

  it('without holdUnapproved they start with the others', async () => {
    const { connect } = connector({ proj: fakeConnection([]), user: fakeConnection([]) });
    const servers = new McpServers(cfg(), options(connect));
    await servers.start();
    expect(statuses(servers)).toEqual({ proj: 'connected', user: 'connected' });
  });

  it('start(names) does not connect a server that is already connected', async () => {
    const { connect, started } = connector({ user: fakeConnection([]) });
    const servers = new McpServers(config([entry('user')]), options(connect));
    await servers.start();
    await servers.start(['user']);
    expect(started).toEqual(['user']);
  });
});

describe('McpServers: tools', () => {
  it('skips tool names over 64 characters', async () => {
    const long = 't'.repeat(64 - 'mcp__s__'.length + 1);
    const fits = 't'.repeat(64 - 'mcp__s__'.length);
    const { connect } = connector({ s: fakeConnection([long, fits, 'short']) });
    const servers = new McpServers(config([entry('s')]), options(connect));
    await servers.start();
    expect(servers.tools().map((t) => t.name)).toEqual([`mcp__s__${fits}`, 'mcp__s__short']);
    expect(servers.list()[0]).toMatchObject({ toolNames: [`mcp__s__${fits}`, 'mcp__s__short'], skipped: [`mcp__s__${long}`] });
  });

  it('skips a tool whose name another server already uses, and duplicates within one server', async () => {
    const gate = deferred();
    const { connect } = connector({ 'a.b': fakeConnection(['x', 'x']), a_b: gate.promise });
    const servers = new McpServers(config([entry('a.b'), entry('a_b')]), options(connect));
    const starting = servers.start();
    await tick();
    gate.resolve(fakeConnection(['x', 'y']));
    await starting;
    const [first, second] = servers.list();
    expect(first).toMatchObject({ name: 'a.b', toolNames: ['mcp__a_b__x'], skipped: ['mcp__a_b__x'] });
    expect(second).toMatchObject({ name: 'a_b', toolNames: ['mcp__a_b__y'], skipped: ['mcp__a_b__x'] });
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__a_b__x', 'mcp__a_b__y']);
  });

  it('lists tools in the order the servers were configured, whichever connects first', async () => {
    const slow = deferred();
    const { connect } = connector({ first: slow.promise, second: fakeConnection(['two']) });
    const servers = new McpServers(config([entry('first'), entry('second')]), options(connect));
    const starting = servers.start();
    await tick();
    expect(statuses(servers)).toEqual({ first: 'pending', second: 'connected' });
    slow.resolve(fakeConnection(['one']));
    await starting;
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__first__one', 'mcp__second__two']);
  });

  it('gathers the servers instructions, trimmed, one section each', async () => {
    const { connect } = connector({ a: fakeConnection([], '  Use a wisely.  '), b: fakeConnection([]), c: fakeConnection([], 'i'.repeat(3000)) });
    const servers = new McpServers(config([entry('a'), entry('b'), entry('c')]), options(connect));
    await servers.start();
    expect(servers.instructions()).toEqual(['## a\nUse a wisely.', `## c\n${'i'.repeat(2048)}`]);
  });
});

describe('McpServers: lost connections and closing', () => {
  it('onLost turns the server to failed and removes its tools', async () => {
    const a = fakeConnection(['one']);
    const b = fakeConnection(['two']);
    const { connect } = connector({ a, b });
    let changes = 0;
    const servers = new McpServers(config([entry('a'), entry('b')]), options(connect, { onChange: () => changes++ }));
    await servers.start();
    const before = changes;
    a.lose('the connection closed: bye');
    expect(changes).toBe(before + 1);
    expect(servers.list()[0]).toMatchObject({ status: 'failed', error: 'the connection closed: bye', toolNames: [] });
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__b__two']);
    expect(servers.instructions()).toEqual([]);
    await servers.close();
    expect(a.closed).toBe(0);
    expect(b.closed).toBe(1);
  });

  it('close() closes every connection, even when one close fails', async () => {
    const a = fakeConnection([]);
    const b = fakeConnection([]);
    b.close = async () => {
      b.closed++;
      throw new Error('already gone');
    };
    const { connect } = connector({ a, b });
    const servers = new McpServers(config([entry('a'), entry('b')]), options(connect));
    await servers.start();
    await expect(servers.close()).resolves.toBeUndefined();
    expect([a.closed, b.closed]).toEqual([1, 1]);
    await servers.close();
    expect([a.closed, b.closed]).toEqual([1, 1]);
  });

  it('a connection that arrives after close() is closed at once', async () => {
    const late = deferred();
    const conn = fakeConnection(['t']);
    const { connect } = connector({ s: late.promise });
    const servers = new McpServers(config([entry('s')]), options(connect));
    const starting = servers.start();
    await servers.close();
    late.resolve(conn);
    await starting;
    expect(conn.closed).toBe(1);
    expect(servers.tools()).toEqual([]);
  });
});

describe('mcpLimitsFromEnv', () => {
  it('has the defaults', () => {
    expect(mcpLimitsFromEnv({})).toEqual({ timeoutMs: 30_000, toolTimeoutMs: 100_000_000, maxOutputChars: 100_000 });
  });

  it('takes MCP_TIMEOUT, MCP_TOOL_TIMEOUT and MAX_MCP_OUTPUT_TOKENS (× 4 characters)', () => {
    expect(mcpLimitsFromEnv({ MCP_TIMEOUT: '5000', MCP_TOOL_TIMEOUT: '60000', MAX_MCP_OUTPUT_TOKENS: '1000' })).toEqual({
      timeoutMs: 5000,
      toolTimeoutMs: 60_000,
      maxOutputChars: 4000,
    });
  });

  it('caps the tool timeout below the timer limit', () => {
    expect(mcpLimitsFromEnv({ MCP_TOOL_TIMEOUT: '99999999999' }).toolTimeoutMs).toBe(2_147_000_000);
  });

  it('ignores values that are not positive numbers', () => {
    for (const bad of ['', '0', '-5', 'abc', 'Infinity']) {
      expect(mcpLimitsFromEnv({ MCP_TIMEOUT: bad, MCP_TOOL_TIMEOUT: bad, MAX_MCP_OUTPUT_TOKENS: bad })).toEqual({
        timeoutMs: 30_000,
        toolTimeoutMs: 100_000_000,
        maxOutputChars: 100_000,
      });
    }
  });
});

describe('McpServers: prompts as slash commands', () => {
  it('lists the connected servers’ prompts and expands one, the words going to its arguments in order', async () => {
    const a = fakeConnection([], undefined, [{ name: 'review', description: 'Review a PR', arguments: [{ name: 'pr', required: true }, { name: 'focus' }] }]);
    const { connect } = connector({ a });
    const servers = new McpServers(config([entry('a')]), options(connect));
    await servers.start();
    expect(servers.prompts()).toEqual([
      { command: 'mcp__a__review', server: 'a', name: 'review', description: 'Review a PR', argNames: ['pr', 'focus'], required: ['pr'] },
    ]);
    expect(await servers.expandPrompt('/mcp__a__review 42 error handling and tests')).toEqual({
      ok: true,
      text: 'prompt review with {"pr":"42","focus":"error handling and tests"}',
    });
    expect(await servers.expandPrompt('/mcp__a__review')).toEqual({ ok: false, message: '/mcp__a__review needs pr: /mcp__a__review <pr> <focus>' });
    expect(await servers.expandPrompt('/mcp__a__other')).toBeUndefined();
    expect(await servers.expandPrompt('plain text')).toBeUndefined();
    await servers.close();
  });
});

describe('McpServers: resources', () => {
  const docs: McpResourceInfo[] = [
    { uri: 'docs://a', name: 'a' },
    { uri: 'docs://b', name: 'b', mimeType: 'text/markdown' },
  ];

  it('adds ListMcpResourcesTool and ReadMcpResourceTool once a connected server offers resources, and counts them', async () => {
    const { connect } = connector({ plain: fakeConnection(['t']), docs: fakeConnection([], undefined, [], docs) });
    const servers = new McpServers(config([entry('plain'), entry('docs')]), options(connect));
    await servers.start();
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__plain__t', 'ListMcpResourcesTool', 'ReadMcpResourceTool']);
    expect(servers.list().map((s) => [s.name, s.resourceCount])).toEqual([
      ['plain', undefined],
      ['docs', 2],
    ]);
    expect(servers.resources()).toEqual([
      { uri: 'docs://a', name: 'a', server: 'docs' },
      { uri: 'docs://b', name: 'b', mimeType: 'text/markdown', server: 'docs' },
    ]);
    expect(servers.connectedServers()).toEqual([
      { name: 'plain', hasResources: false },
      { name: 'docs', hasResources: true },
    ]);
    expect(await servers.readResource('docs', 'docs://a', new AbortController().signal)).toEqual([
      { uri: 'docs://a', mimeType: 'text/plain', text: 'contents of docs://a' },
    ]);
    await expect(servers.readResource('plain2', 'x://y', new AbortController().signal)).rejects.toThrow('the MCP server "plain2" is not connected');
  });

  it('offers no resource tools when no server has resources, or once the one that had them is lost', async () => {
    const d = fakeConnection([], undefined, [], docs);
    const { connect } = connector({ plain: fakeConnection(['t']), docs: d });
    const servers = new McpServers(config([entry('plain')]), options(connect));
    await servers.start();
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__plain__t']);
    const both = new McpServers(config([entry('plain'), entry('docs')]), options(connect));
    await both.start();
    d.lose('gone');
    expect(both.tools().map((t) => t.name)).toEqual(['mcp__plain__t']);
    expect(both.list()[1]).toMatchObject({ status: 'failed', resourceCount: undefined });
  });
});

describe('McpServers: lists that change', () => {
  it('takes a server’s new tool list, tells onChange and the list listeners, and keeps the configured order', async () => {
    const a = fakeConnection(['one']);
    const { connect } = connector({ a, b: fakeConnection(['two']) });
    let changes = 0;
    const servers = new McpServers(config([entry('a'), entry('b')]), options(connect, { onChange: () => changes++ }));
    await servers.start();
    const heard: string[] = [];
    const stop = servers.onListChanged((server, kind) => heard.push(`${server}:${kind}`));
    const before = changes;
    a.tools = [...a.tools, { name: 'three', inputSchema: { type: 'object' } }];
    a.changed('tools');
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__a__one', 'mcp__a__three', 'mcp__b__two']);
    expect(servers.list()[0]!.toolNames).toEqual(['mcp__a__one', 'mcp__a__three']);
    expect(changes).toBe(before + 1);
    a.tools = [];
    a.changed('tools');
    expect(servers.tools().map((t) => t.name)).toEqual(['mcp__b__two']);
    stop();
    a.changed('prompts');
    expect(heard).toEqual(['a:tools', 'a:tools']);
  });

  it('a new resource list is counted; new prompts become commands', async () => {
    const a = fakeConnection([], undefined, [], []);
    const { connect } = connector({ a });
    const servers = new McpServers(config([entry('a')]), options(connect));
    await servers.start();
    expect(servers.list()[0]!.resourceCount).toBe(0);
    a.resources = [{ uri: 'x://1', name: '1' }];
    a.changed('resources');
    expect(servers.list()[0]!.resourceCount).toBe(1);
    a.prompts = [{ name: 'fresh' }];
    a.changed('prompts');
    expect(servers.prompts().map((p) => p.command)).toEqual(['mcp__a__fresh']);
  });

  it('a change from a connection that was lost is ignored', async () => {
    const a = fakeConnection(['one']);
    const { connect } = connector({ a });
    const servers = new McpServers(config([entry('a')]), options(connect));
    await servers.start();
    a.lose('bye');
    a.tools = [{ name: 'late', inputSchema: { type: 'object' } }];
    a.changed('tools');
    expect(servers.tools()).toEqual([]);
  });
});
