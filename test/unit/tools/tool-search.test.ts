/** ToolSearch: its matching and ranking, the tool itself, and when tool search is on. */
import { afterEach, describe, expect, it } from 'vitest';
import { mcpTool } from '../../../src/mcp/tool.js';
import type { McpCallTarget } from '../../../src/mcp/types.js';
import { bashTool } from '../../../src/tools/bash/index.js';
import { readTool } from '../../../src/tools/read/index.js';
import type { Tool } from '../../../src/base/tool.js';
import { toolSearchTool } from '../../../src/tools/tool-search/index.js';
import { isFirstPartyBaseURL, toolSearchMode, toolSearchOn } from '../../../src/tools/tool-search/mode.js';
import { nameParts, searchTools, type Searchable } from '../../../src/tools/tool-search/search.js';
import { zodLib } from '../../../src/base/lib/zod-lib.js';
import { createToolEnv, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const t = (name: string, description = '', searchHint?: string): Searchable => ({ name, description, ...(searchHint ? { searchHint } : {}) });

const DEFERRED = [
  t('mcp__slack__send_message', 'Send a message to a Slack channel.'),
  t('mcp__slack__list_channels', 'List the channels of the workspace.'),
  t('mcp__github__create_issue', 'Open an issue in a repository.'),
  t('mcp__github__list_pull_requests', 'List the pull requests of a repository.', 'pr review branch'),
  t('mcp__mail__send', 'Send an email message.'),
  t('mcp__jupyter__run_cell', 'Run a cell of a notebook.'),
];
const LOADED = [t('Read', 'Reads a file.'), t('NotebookEdit', 'Edits a Jupyter notebook cell.')];
const ALL = [...LOADED, ...DEFERRED];
const search = (q: string, max?: number) => searchTools(q, DEFERRED, ALL, max);

describe('searchTools: direct selection', () => {
  it('select: picks tools by exact name, several at once, in the order asked, without duplicates', () => {
    expect(search('select:mcp__mail__send')).toEqual(['mcp__mail__send']);
    expect(search('select:mcp__github__create_issue, mcp__slack__send_message,mcp__github__create_issue')).toEqual([
      'mcp__github__create_issue',
      'mcp__slack__send_message',
    ]);
  });

  it('select: ignores case, skips unknown names, and accepts a tool that is already loaded', () => {
    expect(search('SELECT:MCP__MAIL__SEND')).toEqual(['mcp__mail__send']);
    expect(search('select:nope,mcp__mail__send')).toEqual(['mcp__mail__send']);
    expect(search('select:Read')).toEqual(['Read']);
    expect(search('select:nope')).toEqual([]);
  });

  it('a bare tool name picks that tool; mcp__server picks the server’s tools', () => {
    expect(search('mcp__slack__list_channels')).toEqual(['mcp__slack__list_channels']);
    expect(search('mcp__github')).toEqual(['mcp__github__create_issue', 'mcp__github__list_pull_requests']);
    expect(search('mcp__github', 1)).toEqual(['mcp__github__create_issue']);
  });
});

describe('searchTools: keywords', () => {
  it('ranks a name part above a description word', () => {
    expect(search('slack')).toEqual(['mcp__slack__send_message', 'mcp__slack__list_channels']);
    expect(search('send')[0]).toMatch(/^mcp__(slack__send_message|mail__send)$/);
    // "message" is a name part of send_message and only a description word of mail__send.
    expect(search('message')).toEqual(['mcp__slack__send_message', 'mcp__mail__send']);
  });

  it('matches the search hint and the description as whole words', () => {
    expect(search('review')).toEqual(['mcp__github__list_pull_requests']);
    expect(search('notebook')).toEqual(['mcp__jupyter__run_cell']);
    expect(search('note')).toEqual([]);
  });

  it('+term must match: the other words only rank', () => {
    expect(search('+slack send')).toEqual(['mcp__slack__send_message', 'mcp__slack__list_channels']);
    expect(search('+github +pull')).toEqual(['mcp__github__list_pull_requests']);
    expect(search('+nothing send')).toEqual([]);
  });

  it('returns at most max_results (5 by default; a bad number means the default)', () => {
    expect(search('zzz')).toEqual([]);
    expect(search('list repository channel message send issue cell', 2)).toHaveLength(2);
    expect(searchTools('mcp', DEFERRED.concat(DEFERRED.map((d) => t(`${d.name}_2`, d.description))), ALL, Number.NaN).length).toBeLessThanOrEqual(5);
    expect(search('   ')).toEqual([]);
  });

  it('splits names into words: MCP names on underscores, others on case', () => {
    expect(nameParts('mcp__my-server__get_thing')).toEqual({ parts: ['my-server', 'get', 'thing'], full: 'my-server get thing', isMcp: true });
    expect(nameParts('NotebookEdit')).toEqual({ parts: ['notebook', 'edit'], full: 'notebook edit', isMcp: false });
  });
});

const target: McpCallTarget = { callTool: async () => ({ content: [] }), validator: async () => undefined };
const mcp = (server: string, name: string, description: string, meta?: Record<string, unknown>) =>
  mcpTool(server, { name, description, inputSchema: { type: 'object' }, ...(meta ? { _meta: meta } : {}) }, target, { maxOutputChars: 1000 });

let env: ToolEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});

describe('the ToolSearch tool', () => {
  const tools: Tool[] = [
    readTool,
    toolSearchTool,
    mcp('slack', 'send_message', 'Send a message.'),
    mcp('slack', 'pin', 'Pin.', { 'anthropic/alwaysLoad': true }),
  ];
  const ctx = () => (env ??= createToolEnv()).nextCall({ tools });

  it('answers with a tool_reference block per match', async () => {
    const r = await runTool(toolSearchTool, { query: 'select:mcp__slack__send_message,Read' }, ctx());
    expect(r.output).toEqual({ matches: ['mcp__slack__send_message', 'Read'], query: 'select:mcp__slack__send_message,Read', total_deferred_tools: 1 });
    expect(r.modelResult.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__slack__send_message' },
      { type: 'tool_reference', tool_name: 'Read' },
    ]);
  });

  it('searches only deferred tools by keyword (a tool loaded always is not among them)', async () => {
    expect((await runTool(toolSearchTool, { query: 'slack' }, ctx())).output.matches).toEqual(['mcp__slack__send_message']);
    expect((await runTool(toolSearchTool, { query: 'pin' }, ctx())).output.matches).toEqual([]);
  });

  it('says so when nothing matches', async () => {
    const r = await runTool(toolSearchTool, { query: 'calendar' }, ctx());
    expect(r.modelResult.content).toMatch(/^No matching deferred tools found\. Try other keywords/);
  });

  it('refuses a query that is not a string, and unknown fields', async () => {
    expect(await tryRunTool(toolSearchTool, { max_results: 3 }, ctx())).toMatchObject({ ok: false, stage: 'parse' });
    expect(await tryRunTool(toolSearchTool, { query: 'x', limit: 3 }, ctx())).toMatchObject({ ok: false, stage: 'parse' });
  });

  it('is read-only, concurrency-safe and never asks', async () => {
    expect(toolSearchTool.isReadOnly({ query: 'x' })).toBe(true);
    expect(toolSearchTool.isConcurrencySafe({ query: 'x' })).toBe(true);
    expect(await toolSearchTool.checkPermissions({ query: 'x' }, ctx())).toMatchObject({ behavior: 'allow' });
  });

  it('sends the JSON Schema its zod schema describes', () => {
    const fromZod = zodLib().z.toJSONSchema(toolSearchTool.inputSchema, { io: 'input' }) as Record<string, unknown>;
    delete fromZod.$schema;
    expect(toolSearchTool.inputJsonSchema).toEqual(fromZod);
  });
});

describe('when tool search is on', () => {
  it('reads ENABLE_TOOL_SEARCH as Claude Code does', () => {
    const mode = (v?: string, more: Record<string, string> = {}) => toolSearchMode({ ENABLE_TOOL_SEARCH: v, ...more });
    expect(mode()).toEqual({ kind: 'on' });
    expect(mode('true')).toEqual({ kind: 'on' });
    expect(mode('1')).toEqual({ kind: 'on' });
    expect(mode('false')).toEqual({ kind: 'off' });
    expect(mode('0')).toEqual({ kind: 'off' });
    expect(mode('auto')).toEqual({ kind: 'auto', percent: 10 });
    expect(mode('auto:25')).toEqual({ kind: 'auto', percent: 25 });
    expect(mode('auto:0')).toEqual({ kind: 'on' });
    expect(mode('auto:100')).toEqual({ kind: 'off' });
    expect(mode('auto:250')).toEqual({ kind: 'off' });
    expect(mode('auto:x')).toEqual({ kind: 'auto', percent: 10 });
    expect(mode('true', { CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS: '1' })).toEqual({ kind: 'off' });
  });

  it('is off behind a gateway unless ENABLE_TOOL_SEARCH is set', () => {
    const gateway = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080' };
    expect(toolSearchMode(gateway)).toEqual({ kind: 'off' });
    expect(toolSearchMode({ ...gateway, ENABLE_TOOL_SEARCH: 'true' })).toEqual({ kind: 'on' });
    expect(toolSearchMode({ ...gateway, ENABLE_TOOL_SEARCH: 'auto:5' })).toEqual({ kind: 'auto', percent: 5 });
    expect(toolSearchMode({ ANTHROPIC_BASE_URL: 'https://api.anthropic.com/' })).toEqual({ kind: 'on' });
    expect(isFirstPartyBaseURL(undefined)).toBe(true);
    expect(isFirstPartyBaseURL('https://api.anthropic.com/v1')).toBe(true);
    expect(isFirstPartyBaseURL('https://api.anthropic.com.evil.example')).toBe(false);
    expect(isFirstPartyBaseURL('not a url')).toBe(false);
  });

  // Three tools of about 2,000 characters each (descriptions are cut at 2,048).
  const big = Array.from({ length: 3 }, (_, i) => mcp(`big${i}`, 'tool', 'x'.repeat(2000)));
  const small = mcp('small', 'tool', 'small');
  const on = (env: Record<string, string>, tools: Tool[], model = 'claude-sonnet-4-6') =>
    toolSearchOn({ env, model, tools, definitionChars: (tool) => tool.name.length + tool.description({ cwd: '/', platform: 'linux' }).length });

  it('needs ToolSearch among the tools, a deferred tool, and a model that takes tool_reference', () => {
    expect(on({}, [bashTool, toolSearchTool, small])).toBe(true);
    expect(on({}, [bashTool, small])).toBe(false);
    expect(on({}, [bashTool, toolSearchTool])).toBe(false);
    expect(on({}, [bashTool, toolSearchTool, mcp('s', 't', 'd', { 'anthropic/alwaysLoad': true })])).toBe(false);
    expect(on({}, [toolSearchTool, small], 'claude-3-5-haiku-20241022')).toBe(false);
    expect(on({}, [toolSearchTool, small], 'claude-haiku-4-5')).toBe(true);
    expect(on({ ENABLE_TOOL_SEARCH: 'false' }, [toolSearchTool, small])).toBe(false);
  });

  it('auto: on when the deferred definitions reach N% of the context window (at 2.5 characters a token)', () => {
    // 10% of 200k tokens = 20,000 tokens = 50,000 characters; 1% = 5,000 characters.
    expect(on({ ENABLE_TOOL_SEARCH: 'auto' }, [toolSearchTool, ...big])).toBe(false);
    expect(on({ ENABLE_TOOL_SEARCH: 'auto:1' }, [toolSearchTool, ...big])).toBe(true);
    expect(on({ ENABLE_TOOL_SEARCH: 'auto:1' }, [toolSearchTool, small])).toBe(false);
    expect(on({ ENABLE_TOOL_SEARCH: 'auto:1' }, [toolSearchTool, ...big.slice(0, 2)])).toBe(false);
    expect(on({ ENABLE_TOOL_SEARCH: 'auto:1' }, [toolSearchTool, ...big], 'claude-sonnet-4-6[1m]')).toBe(false);
  });
});
