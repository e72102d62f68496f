/**
 * MCP resources and list changes in print mode, through the built binary: ListMcpResourcesTool and
 * ReadMcpResourceTool, @server:uri mentions, and a server whose tools change between two requests.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';
import { README_TEXT } from '../support/mcp-server.mjs';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const stdio = (...args: string[]) => ({ command: process.execPath, args: [SERVER, ...args] });

const t = useApiAndProject();

const mcpJson = (servers: Record<string, unknown>) => writeFileSync(path.join(t.project.dir, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
const run = (args: string[], env?: Record<string, string | undefined>) => t.run(args, { env, timeoutMs: 30_000 });
const request = (i: number) =>
  t.api.messageRequests().at(i)!.body as unknown as { tools: Array<{ name: string; input_schema: unknown }>; messages: Array<{ content: unknown }> };
const toolNames = (i: number) => request(i).tools.map((x) => x.name);
const result = (id: string) => toolResultIn(request(-1), id) as { content: unknown; is_error?: boolean };
const textOf = (c: unknown) => (typeof c === 'string' ? c : (c as Array<{ type: string; text?: string }>).map((b) => b.text ?? `[${b.type}]`).join('\n'));

describe('MCP resources in print mode', () => {
  it('offers the resource tools when a server has resources, and they list and read without asking', async () => {
    mcpJson({ test: stdio() });
    t.api.script(
      reply()
        .toolUse('ListMcpResourcesTool', {}, { id: 'toolu_list' })
        .toolUse('ReadMcpResourceTool', { server: 'test', uri: 'test://docs/readme' }, { id: 'toolu_text' })
        .toolUse('ReadMcpResourceTool', { server: 'test', uri: 'test://images/dot.png' }, { id: 'toolu_png' })
        .toolUse('ReadMcpResourceTool', { server: 'test', uri: 'test://data/blob.bin' }, { id: 'toolu_bin' })
        .toolUse('ReadMcpResourceTool', { server: 'nope', uri: 'test://docs/readme' }, { id: 'toolu_nope' })
        .toolUse('ReadMcpResourceTool', { server: 'test', uri: 'test://docs/missing' }, { id: 'toolu_missing' }),
      reply().text('read them'),
    );
    const r = await run(['-p', 'what resources are there?', '--output-format', 'json']);
    expectExit(r, 0);
    expect(toolNames(0)).toEqual(expect.arrayContaining(['mcp__test__echo', 'ListMcpResourcesTool', 'ReadMcpResourceTool']));
    expect(request(0).tools.find((x) => x.name === 'ReadMcpResourceTool')!.input_schema).toMatchObject({ required: ['server', 'uri'] });
    expect(JSON.parse(textOf(result('toolu_list').content))).toEqual([
      { name: 'readme', uri: 'test://docs/readme', description: 'How to use the test server.', mimeType: 'text/plain', server: 'test' },
      { name: 'dot', uri: 'test://images/dot.png', description: 'A red dot.', mimeType: 'image/png', server: 'test' },
      { name: 'blob', uri: 'test://data/blob.bin', mimeType: 'application/octet-stream', server: 'test' },
    ]);
    expect(result('toolu_text')).toMatchObject({ content: README_TEXT });
    expect(result('toolu_png').content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.any(String) } }]);
    expect(result('toolu_bin')).toMatchObject({
      content: '[binary resource test://data/blob.bin (application/octet-stream, 5 bytes) the model cannot be shown]',
    });
    expect(result('toolu_nope')).toMatchObject({ is_error: true });
    expect(textOf(result('toolu_nope').content)).toContain('Server "nope" not found. Available servers: test');
    expect(result('toolu_missing')).toMatchObject({ is_error: true });
    expect(textOf(result('toolu_missing').content)).toContain('Could not read test://docs/missing from "test"');
    expect(r.json<any>().permission_denials).toEqual([]);
  });

  it('offers no resource tools when no server has resources; a deny rule removes them', async () => {
    mcpJson({ test: stdio('--no-resources') });
    t.api.script(reply().text('a'), reply().text('b'));
    expectExit(await run(['-p', 'hi']), 0);
    expect(toolNames(-1)).toContain('mcp__test__echo');
    expect(toolNames(-1).filter((n) => n.includes('McpResource'))).toEqual([]);
    mcpJson({ test: stdio() });
    writeFileSync(path.join(t.project.dir, 'deny.json'), JSON.stringify({ permissions: { deny: ['ListMcpResourcesTool'] } }));
    expectExit(await run(['-p', 'hi', '--settings', path.join(t.project.dir, 'deny.json')]), 0);
    expect(toolNames(-1).filter((n) => n.includes('McpResource'))).toEqual(['ReadMcpResourceTool']);
  });

  it('@server:uri attaches the resource to the prompt; an unknown server or a failed read is a note', async () => {
    mcpJson({ test: stdio() });
    t.api.script(reply().text('got it'));
    const r = await run(['-p', 'summarise @test:test://docs/readme, @test:test://nope and @other:docs://x']);
    expectExit(r, 0);
    const content = request(0).messages[0]!.content as Array<{ type: string; text?: string }>;
    const texts = content.map((b) => b.text ?? `[${b.type}]`);
    expect(texts[0]).toBe('summarise @test:test://docs/readme, @test:test://nope and @other:docs://x');
    expect(texts).toContain(
      'Contents of the MCP resource @test:test://docs/readme (attached by the person, already read; read it again only if it may have changed):',
    );
    expect(texts).toContain(README_TEXT);
    expect(texts.some((x) => x.startsWith('(@test:test://nope was not attached: Could not read test://nope from "test"'))).toBe(true);
    expect(texts).toContain('(@other:docs://x was not attached: Server "other" not found. Available servers: test)');
    expect(r.stdout).toBe('got it\n');
  });

  it('a server whose tools change during a run: the next request offers the new tools', async () => {
    mcpJson({ test: stdio() });
    t.api.script(
      reply().toolUse('mcp__test__grow', { name: 'fresh' }, { id: 'toolu_grow' }),
      reply().toolUse('mcp__test__fresh', {}, { id: 'toolu_fresh' }),
      reply().text('done'),
    );
    const r = await run(['-p', 'grow a tool, then use it', '--allowedTools', 'mcp__test']);
    expectExit(r, 0);
    expect(toolNames(0)).not.toContain('mcp__test__fresh');
    expect(toolNames(1)).toContain('mcp__test__fresh');
    expect(toolNames(1)).toContain('mcp__test__echo');
    expect(result('toolu_grow')).toMatchObject({ content: 'added fresh' });
    expect(result('toolu_fresh')).toMatchObject({ content: 'fresh answered' });
  });
});
