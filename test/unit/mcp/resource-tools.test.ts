import { afterEach, describe, expect, it } from 'vitest';
import type { McpResourceContents, McpResourceInfo } from '../../../src/mcp/types.js';
import { isReadResourceTool, listResourcesTool, readResourceTool, serverTurnedOff, type McpResourceSource } from '../../../src/mcp/resource-tools.js';
import { parseRule } from '../../../src/base/rule-parse.js';
import { emptyRules, type PermissionRules } from '../../../src/base/permission-types.js';
import { inputJsonSchema } from '../../../src/tools/api-schema.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface FakeSource extends McpResourceSource {
  listed: string[];
  reads: Array<{ server: string; uri: string }>;
}

function fakeSource(servers: Record<string, McpResourceInfo[] | null | Error>, contents: Record<string, McpResourceContents[] | Error> = {}): FakeSource {
  const source: FakeSource = {
    listed: [],
    reads: [],
    connectedServers: () => Object.entries(servers).map(([name, r]) => ({ name, hasResources: r !== null })),
    async listResources(server) {
      source.listed.push(server);
      const r = servers[server];
      if (r instanceof Error) throw r;
      return r ?? [];
    },
    async readResource(server, uri) {
      source.reads.push({ server, uri });
      const c = contents[uri];
      if (!c) throw new Error('MCP error -32002: Resource not found');
      if (c instanceof Error) throw c;
      return c;
    },
  };
  return source;
}

const opts = { maxOutputChars: 1000 };

let env: ToolEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});
const ctx = (rules?: PermissionRules) => (env ??= createToolEnv()).nextCall(rules ? { rules } : {});
const denying = (...rules: string[]): PermissionRules => ({ ...emptyRules(), deny: rules.map((r) => parseRule(r, 'session')) });

describe('ListMcpResourcesTool', () => {
  const docs: McpResourceInfo[] = [
    { uri: 'docs://a', name: 'a', mimeType: 'text/plain' },
    { uri: 'docs://b', name: 'b', description: 'The second.' },
  ];

  it('lists every server’s resources as JSON, each with its server; servers without resources are not asked', async () => {
    const source = fakeSource({ docs, tools: null, more: [{ uri: 'more://x', name: 'x' }] });
    const r = await runTool(listResourcesTool(source, opts), {}, ctx());
    expect(source.listed).toEqual(['docs', 'more']);
    expect(JSON.parse(resultText(r.modelResult))).toEqual([
      { uri: 'docs://a', name: 'a', mimeType: 'text/plain', server: 'docs' },
      { uri: 'docs://b', name: 'b', description: 'The second.', server: 'docs' },
      { uri: 'more://x', name: 'x', server: 'more' },
    ]);
    expect(r.display).toEqual({ summary: '3 resources', preview: '@docs:docs://a  a\n@docs:docs://b  b\n@more:more://x  x' });
  });

  it('lists one server’s when named; an unknown server is refused, naming the servers there are', async () => {
    const source = fakeSource({ docs, more: [{ uri: 'more://x', name: 'x' }] });
    const tool = listResourcesTool(source, opts);
    const r = await runTool(tool, { server: 'more' }, ctx());
    expect(JSON.parse(resultText(r.modelResult))).toEqual([{ uri: 'more://x', name: 'x', server: 'more' }]);
    expect(await tryRunTool(tool, { server: 'nope' }, ctx())).toEqual({
      ok: false,
      stage: 'validate',
      message: 'Server "nope" not found. Available servers: docs, more',
    });
    expect(await tryRunTool(tool, { server: 1 }, ctx())).toMatchObject({ ok: false, stage: 'parse' });
    expect(await tryRunTool(tool, { other: 'x' }, ctx())).toMatchObject({ ok: false, stage: 'parse' });
  });

  it('says so when there is nothing, and names a server whose listing failed', async () => {
    expect(resultText((await runTool(listResourcesTool(fakeSource({ empty: [] }), opts), {}, ctx())).modelResult)).toBe(
      'No resources found. MCP servers may still provide tools even if they have no resources.',
    );
    const r = await runTool(listResourcesTool(fakeSource({ docs, broken: new Error('MCP error -32603: database down') }), opts), {}, ctx());
    expect(resultText(r.modelResult)).toMatch(/^\[\{"uri":"docs:\/\/a".*\]\nresources\/list failed for "broken": database down$/);
  });

  it('is read-only, concurrency-safe, asks no permission, and cuts long output like MCP tools', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ uri: `docs://${i}`, name: `resource number ${i}` }));
    const tool = listResourcesTool(fakeSource({ docs: many }), { maxOutputChars: 200 });
    expect(tool.isReadOnly({})).toBe(true);
    expect(tool.isConcurrencySafe({})).toBe(true);
    expect(await tool.checkPermissions({}, ctx())).toEqual({ behavior: 'allow' });
    const text = resultText((await runTool(tool, {}, ctx())).modelResult);
    expect(text).toContain('[output cut at 200 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]');
    expect(text.length).toBeLessThan(300);
  });

  it('leaves out servers a bare deny rule turns off', async () => {
    const source = fakeSource({ docs, secret: [{ uri: 'secret://x', name: 'x' }] });
    const tool = listResourcesTool(source, opts);
    const rules = denying('mcp__secret');
    const r = await runTool(tool, {}, ctx(rules));
    expect(resultText(r.modelResult)).not.toContain('secret://');
    expect(source.listed).toEqual(['docs']);
    expect(await tryRunTool(tool, { server: 'secret' }, ctx(rules))).toMatchObject({
      ok: false,
      message: 'Server "secret" not found. Available servers: docs',
    });
  });

  it('sends the API a schema with one optional server field', () => {
    expect(inputJsonSchema(listResourcesTool(fakeSource({}), opts))).toEqual({
      type: 'object',
      properties: { server: { type: 'string', description: 'Optional server name to filter resources by' } },
      additionalProperties: false,
    });
  });
});

describe('ReadMcpResourceTool', () => {
  const contents: Record<string, McpResourceContents[]> = {
    'docs://a': [{ uri: 'docs://a', mimeType: 'text/plain', text: 'Alpha text.' }],
    'docs://two': [
      { uri: 'docs://two#1', text: 'first' },
      { uri: 'docs://two#2', text: 'second' },
    ],
    'img://dot': [{ uri: 'img://dot', mimeType: 'image/png', blob: PNG }],
    'bin://x': [{ uri: 'bin://x', mimeType: 'application/octet-stream', blob: 'AAECAwQ=' }],
    'big://x': [{ uri: 'big://x', text: 'y'.repeat(5000) }],
    'empty://x': [],
  };
  const source = () => fakeSource({ docs: [], tools: null }, contents);

  it('gives text as text, several parts each under its URI', async () => {
    const s = source();
    const tool = readResourceTool(s, opts);
    expect((await runTool(tool, { server: 'docs', uri: 'docs://a' }, ctx())).modelResult).toEqual({ content: 'Alpha text.' });
    expect(s.reads).toEqual([{ server: 'docs', uri: 'docs://a' }]);
    expect((await runTool(tool, { server: 'docs', uri: 'docs://two' }, ctx())).modelResult).toEqual({ content: 'docs://two#1\nfirst\ndocs://two#2\nsecond' });
  });

  it('gives an image as an image block, and other binary content as a line with its type and size', async () => {
    const tool = readResourceTool(source(), opts);
    expect((await runTool(tool, { server: 'docs', uri: 'img://dot' }, ctx())).modelResult).toEqual({
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }],
    });
    expect((await runTool(tool, { server: 'docs', uri: 'bin://x' }, ctx())).modelResult).toEqual({
      content: '[binary resource bin://x (application/octet-stream, 5 bytes) the model cannot be shown]',
    });
    expect((await runTool(tool, { server: 'docs', uri: 'empty://x' }, ctx())).modelResult).toEqual({ content: 'empty://x has no content' });
  });

  it('cuts text over MAX_MCP_OUTPUT_TOKENS with a note', async () => {
    const text = resultText((await runTool(readResourceTool(source(), { maxOutputChars: 100 }), { server: 'docs', uri: 'big://x' }, ctx())).modelResult);
    expect(text).toBe(`${'y'.repeat(100)}\n[output cut at 100 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]`);
  });

  it('refuses an unknown server, a server without resources, an empty URI and a denied server before reading', async () => {
    const s = source();
    const tool = readResourceTool(s, opts);
    expect(await tryRunTool(tool, { server: 'nope', uri: 'x://y' }, ctx())).toEqual({
      ok: false,
      stage: 'validate',
      message: 'Server "nope" not found. Available servers: docs, tools',
    });
    expect(await tryRunTool(tool, { server: 'tools', uri: 'x://y' }, ctx())).toEqual({
      ok: false,
      stage: 'validate',
      message: 'Server "tools" does not support resources',
    });
    expect(await tryRunTool(tool, { server: 'docs', uri: ' ' }, ctx())).toMatchObject({
      ok: false,
      stage: 'validate',
      message: expect.stringContaining('uri is empty'),
    });
    expect(await tryRunTool(tool, { server: 'docs', uri: 'docs://a' }, ctx(denying('mcp__docs__*')))).toMatchObject({ ok: false, stage: 'validate' });
    expect(await tryRunTool(tool, { server: 'docs' }, ctx())).toMatchObject({ ok: false, stage: 'parse' });
    expect(s.reads).toEqual([]);
  });

  it('a failed read says which resource and why, without the protocol prefix', async () => {
    const r = await tryRunTool(readResourceTool(source(), opts), { server: 'docs', uri: 'docs://missing' }, ctx());
    expect(r).toEqual({ ok: false, stage: 'call', message: 'Could not read docs://missing from "docs": Resource not found' });
  });

  it('is read-only and concurrency-safe, asks no permission, and names the connected servers', async () => {
    const tool = readResourceTool(source(), opts);
    const input = { server: 'docs', uri: 'docs://a' };
    expect([tool.isReadOnly(input), tool.isConcurrencySafe(input)]).toEqual([true, true]);
    expect(await tool.checkPermissions(input, ctx())).toEqual({ behavior: 'allow' });
    expect(isReadResourceTool(tool)).toBe(true);
    expect(tool.servers()).toEqual(['docs', 'tools']);
    expect(inputJsonSchema(tool)).toMatchObject({ required: ['server', 'uri'] });
  });
});

describe('serverTurnedOff', () => {
  it('only bare deny rules for the server’s tools turn it off', () => {
    expect(serverTurnedOff('gh', denying('mcp__gh'))).toBe(true);
    expect(serverTurnedOff('gh', denying('mcp__gh__*'))).toBe(true);
    expect(serverTurnedOff('my.server', denying('mcp__my_server'))).toBe(true);
    expect(serverTurnedOff('gh', denying('mcp__gh__create_issue'))).toBe(false);
    expect(serverTurnedOff('gh', denying('mcp__ghx'))).toBe(false);
    expect(serverTurnedOff('gh', denying('Bash'))).toBe(false);
    expect(serverTurnedOff('gh', undefined)).toBe(false);
  });
});
