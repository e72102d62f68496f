/**
 * Tool search through the built binary, the fake API and the real test MCP server: with
 * ENABLE_TOOL_SEARCH the MCP tools wait, listed by name; ToolSearch loads them with tool_reference
 * blocks; a loaded tool then runs through every gate as any MCP tool does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply, type RecordedRequest } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const BETA = 'advanced-tool-use-2025-11-20';
const MCP_TOOLS = ['add', 'approve', 'big', 'echo', 'fail', 'grow', 'image', 'roots', 'slow', 'where'].map((n) => `mcp__test__${n}`);

const t = useApiAndProject();

const withMcpServer = () =>
  writeFileSync(path.join(t.project.dir, '.mcp.json'), JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [SERVER] } } }));
const settings = (s: unknown) => {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify(s));
};
const run = (args: string[], env?: Record<string, string | undefined>) => t.run(args, { env, timeoutMs: 30_000 });

type Tool = { name: string; defer_loading?: boolean; input_schema?: unknown };
const toolsOf = (r: RecordedRequest) => (r.body.tools ?? []) as Tool[];
const namesOf = (r: RecordedRequest) => toolsOf(r).map((x) => x.name);
const betasOf = (r: RecordedRequest) => String(r.headers['anthropic-beta'] ?? '');
const firstMessageText = (r: RecordedRequest) => JSON.stringify(r.body.messages![0]!.content);
// The MCP resource tools wait behind ToolSearch too (the test server has resources).
const LIST = `<available-deferred-tools>\nListMcpResourcesTool\nReadMcpResourceTool\n${MCP_TOOLS.join('\n')}\n</available-deferred-tools>`;

describe('tool search (ENABLE_TOOL_SEARCH=true)', () => {
  it('defers the MCP tools, lists them, loads one with ToolSearch, and runs it through the gates', async () => {
    withMcpServer();
    settings({ permissions: { allow: ['mcp__test__echo'] } });
    t.api.script(
      reply().toolUse('ToolSearch', { query: 'select:mcp__test__echo,mcp__test__add' }, { id: 'toolu_s' }),
      reply().toolUse('mcp__test__echo', { text: 'hi' }, { id: 'toolu_e' }).toolUse('mcp__test__add', { a: 1, b: 2 }, { id: 'toolu_a' }),
      reply().text('done'),
    );
    const r = await run(['-p', 'echo hi', '--output-format', 'json'], { ENABLE_TOOL_SEARCH: 'true' });
    expectExit(r, 0);
    const [first, second, third] = t.api.messageRequests();

    // First request: no MCP tool is sent, ToolSearch is, the beta is on, and the model is told the names.
    expect(namesOf(first!)).toContain('ToolSearch');
    expect(namesOf(first!)).toContain('Read');
    expect(namesOf(first!).filter((n) => n.startsWith('mcp__'))).toEqual([]);
    expect(betasOf(first!)).toContain(BETA);
    expect(JSON.parse(firstMessageText(first!))[0]).toEqual({ type: 'text', text: LIST });

    // ToolSearch answered with references; the loaded tools now travel with defer_loading.
    expect(toolResultIn(second!.body, 'toolu_s').content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__test__echo' },
      { type: 'tool_reference', tool_name: 'mcp__test__add' },
    ]);
    expect((second!.body.messages!.at(-1)!.content as Array<{ type: string; text?: string }>).at(-1)).toMatchObject({ type: 'text', text: 'Tool loaded.' });
    const loaded = toolsOf(second!).filter((x) => x.name.startsWith('mcp__'));
    expect(loaded.map((x) => [x.name, x.defer_loading])).toEqual([
      ['mcp__test__echo', true],
      ['mcp__test__add', true],
    ]);
    expect(loaded[0]!.input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    // The prefix is unchanged: the same eager tools, the same list at the start.
    expect(namesOf(second!).slice(0, namesOf(first!).length)).toEqual(namesOf(first!));
    expect(JSON.parse(firstMessageText(second!))[0]).toEqual({ type: 'text', text: LIST });

    // The loaded tools ran through the gates: the allowed one ran, the other was refused (print mode cannot ask).
    expect(toolResultIn(third!.body, 'toolu_e')).toMatchObject({ content: 'echo: hi' });
    const add = toolResultIn(third!.body, 'toolu_a');
    expect(add.is_error).toBe(true);
    expect(JSON.stringify(add.content)).toContain('--allowedTools \\"mcp__test__add\\"');
    const out = r.json<any>();
    expect(out.result).toBe('done');
    expect(out.permission_denials).toEqual([{ tool_name: 'mcp__test__add', tool_use_id: 'toolu_a', tool_input: { a: 1, b: 2 } }]);
  });

  it('finds tools by keyword, and tells a model that calls a tool it has not loaded to load it first', async () => {
    withMcpServer();
    t.api.script(
      reply().toolUse('ToolSearch', { query: 'numbers', max_results: 3 }, { id: 'toolu_k' }).toolUse('mcp__test__add', { a: 'one' }, { id: 'toolu_x' }),
      reply().text('ok'),
    );
    const r = await run(['-p', 'add', '--allowedTools', 'mcp__test'], { ENABLE_TOOL_SEARCH: 'true' });
    expectExit(r, 0);
    const last = t.api.messageRequests().at(-1)!;
    expect(toolResultIn(last.body, 'toolu_k').content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__test__add' }]);
    const refused = toolResultIn(last.body, 'toolu_x');
    expect(refused.is_error).toBe(true);
    expect(refused.content).toContain('a: expected number, got string');
    expect(refused.content).toContain('Load it first: call ToolSearch with query "select:mcp__test__add"');
  });

  it('lists ToolSearch in the init message, and a deny rule on ToolSearch turns tool search off', async () => {
    withMcpServer();
    t.api.script(reply().text('hi'));
    const on = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose'], { ENABLE_TOOL_SEARCH: 'true' });
    expectExit(on, 0);
    expect(on.lines<any>()[0].tools).toContain('ToolSearch');

    t.api.script(reply().text('hi'));
    const denied = await run(['-p', 'hi', '--disallowedTools', 'ToolSearch'], { ENABLE_TOOL_SEARCH: 'true' });
    expectExit(denied, 0);
    const req = t.api.messageRequests().at(-1)!;
    expect(namesOf(req)).not.toContain('ToolSearch');
    expect(namesOf(req)).toEqual(expect.arrayContaining(MCP_TOOLS));
    expect(betasOf(req)).not.toContain(BETA);
  });
});

describe('tool search off', () => {
  it('ENABLE_TOOL_SEARCH=false, or unset behind a gateway (the fake API): every MCP tool in full, no ToolSearch', async () => {
    withMcpServer();
    for (const env of [{ ENABLE_TOOL_SEARCH: 'false' }, {}]) {
      t.api.script(reply().text('hi'));
      const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose'], env);
      expectExit(r, 0);
      const req = t.api.messageRequests().at(-1)!;
      expect(namesOf(req)).toEqual(expect.arrayContaining(MCP_TOOLS));
      expect(namesOf(req)).not.toContain('ToolSearch');
      expect(toolsOf(req).some((x) => 'defer_loading' in x)).toBe(false);
      expect(betasOf(req)).not.toContain(BETA);
      expect(firstMessageText(req)).not.toContain('available-deferred-tools');
      expect(r.lines<any>()[0].tools).not.toContain('ToolSearch');
    }
  });

  it('without MCP servers there is no ToolSearch, even with ENABLE_TOOL_SEARCH=true', async () => {
    t.api.script(reply().text('hi'));
    const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose'], { ENABLE_TOOL_SEARCH: 'true' });
    expectExit(r, 0);
    const req = t.api.messageRequests()[0]!;
    expect(namesOf(req)).not.toContain('ToolSearch');
    expect(betasOf(req)).not.toContain(BETA);
    expect(firstMessageText(req)).not.toContain('available-deferred-tools');
    expect(r.lines<any>()[0].tools).not.toContain('ToolSearch');
  });
});

describe('a server entry with alwaysLoad: true', () => {
  it('sends its tools with every request, in full, while tool search is on', async () => {
    writeFileSync(
      path.join(t.project.dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [SERVER], alwaysLoad: true } } }),
    );
    t.api.script(reply().text('done'));
    expectExit(await run(['-p', 'hi'], { ENABLE_TOOL_SEARCH: 'true' }), 0);
    const [first] = t.api.messageRequests();
    const mcp = toolsOf(first!).filter((x) => x.name.startsWith('mcp__'));
    expect(mcp.map((x) => x.name).sort()).toEqual(MCP_TOOLS);
    expect(mcp.every((x) => x.defer_loading === undefined)).toBe(true);
    // Only the resource tools still wait.
    expect(firstMessageText(first!)).not.toContain('mcp__test__');
  });
});
