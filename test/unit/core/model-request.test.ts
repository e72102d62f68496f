/** What a request carries with tool search on and off: tools, the deferred list, tool references. */
import { describe, expect, it } from 'vitest';
import type { ModelClient } from '../../../src/api/model-client.js';
import type { ApiMessage, ContentBlock } from '../../../src/base/events.js';
import { requestParts } from '../../../src/core/model-request.js';
import { mcpTool } from '../../../src/mcp/tool.js';
import type { McpCallTarget } from '../../../src/mcp/types.js';
import { toolSearchTool } from '../../../src/tools/tool-search/index.js';
import { loadedToolNames, prepareMessages, TOOLS_LOADED_TEXT } from '../../../src/tools/tool-search/references.js';
import { findViolations } from '../../support/messages-api-rules.js';
import { agentOptions, fakeTool } from './fake-tools.js';

const target: McpCallTarget = { callTool: async () => ({ content: [] }), validator: async () => undefined };
const mcp = (name: string, meta?: Record<string, unknown>) =>
  mcpTool('srv', { name, description: `does ${name}`, inputSchema: { type: 'object' }, ...(meta ? { _meta: meta } : {}) }, target, { maxOutputChars: 1000 });

const client = {} as ModelClient;
const TOOLS = [fakeTool({ name: 'Read' }), toolSearchTool, mcp('alpha'), mcp('beta'), mcp('always', { 'anthropic/alwaysLoad': true })];
const agent = (env: Record<string, string> = {}) => agentOptions(client, { tools: [...TOOLS], env, model: 'claude-sonnet-4-6' });

const search = (id: string, query: string): ApiMessage => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'ToolSearch', input: { query } }] });
const loaded = (id: string, ...names: string[]): ContentBlock => ({
  type: 'tool_result',
  tool_use_id: id,
  content: names.map((n) => ({ type: 'tool_reference' as const, tool_name: n })),
});
const CONVERSATION: ApiMessage[] = [
  { role: 'user', content: 'use alpha' },
  search('toolu_1', 'select:mcp__srv__alpha'),
  { role: 'user', content: [loaded('toolu_1', 'mcp__srv__alpha')] },
];
const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

describe('requestParts with tool search on', () => {
  it('sends the loaded tools only, eager ones first, deferred ones with defer_loading, and the beta', () => {
    const first = requestParts([CONVERSATION[0]!], agent());
    expect(names(first.tools)).toEqual(['Read', 'ToolSearch', 'mcp__srv__always']);
    expect(first.tools.at(-1)).toMatchObject({ name: 'mcp__srv__always', cache_control: { type: 'ephemeral' } });
    expect(first.betas).toEqual(['advanced-tool-use-2025-11-20']);
    expect([...first.notLoaded]).toEqual(['mcp__srv__alpha', 'mcp__srv__beta']);

    const later = requestParts(CONVERSATION, agent());
    expect(names(later.tools)).toEqual(['Read', 'ToolSearch', 'mcp__srv__always', 'mcp__srv__alpha']);
    expect(later.tools.at(-1)).toEqual(expect.objectContaining({ name: 'mcp__srv__alpha', defer_loading: true }));
    expect(later.tools.at(-1)).not.toHaveProperty('cache_control');
    expect([...later.notLoaded]).toEqual(['mcp__srv__beta']);
    expect(findViolations({ model: 'm', max_tokens: 1, tools: later.tools, messages: later.messages }, later.betas)).toEqual([]);
  });

  it('lists the deferred tools at the start of the first message, the same on every request', () => {
    const first = requestParts([CONVERSATION[0]!], agent()).messages[0]!;
    const later = requestParts(CONVERSATION, agent()).messages[0]!;
    const list = { type: 'text', text: '<available-deferred-tools>\nmcp__srv__alpha\nmcp__srv__beta\n</available-deferred-tools>' };
    expect(later.content).toEqual([list, { type: 'text', text: 'use alpha' }]);
    expect((first.content as ContentBlock[])[0]).toEqual(list);
  });

  it('closes a tool_result of references with a text, which takes the cache breakpoint', () => {
    const last = requestParts(CONVERSATION, agent()).messages.at(-1)!;
    expect(last.content).toEqual([loaded('toolu_1', 'mcp__srv__alpha'), { type: 'text', text: TOOLS_LOADED_TEXT, cache_control: { type: 'ephemeral' } }]);
    expect(CONVERSATION[2]!.content).toEqual([loaded('toolu_1', 'mcp__srv__alpha')]);
  });
});

describe('requestParts with tool search off', () => {
  it('sends every tool but ToolSearch, in full, with no beta and no list', () => {
    for (const env of [{ ENABLE_TOOL_SEARCH: 'false' }, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }] as Array<Record<string, string>>) {
      const parts = requestParts(CONVERSATION, agent(env));
      expect(names(parts.tools)).toEqual(['Read', 'mcp__srv__alpha', 'mcp__srv__beta', 'mcp__srv__always']);
      expect(parts.tools.some((t) => t.defer_loading)).toBe(false);
      expect(parts.betas).toEqual([]);
      expect(parts.messages[0]!.content).toBe('use alpha');
      // A reference from when it was on becomes text.
      expect(parts.messages[2]!.content).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'text', text: 'mcp__srv__alpha is loaded: it is in your tool list.' }],
          cache_control: { type: 'ephemeral' },
        },
      ]);
      expect(findViolations({ model: 'm', max_tokens: 1, tools: parts.tools, messages: parts.messages }, parts.betas)).toEqual([]);
    }
  });

  it('leaves a session without deferred tools exactly as before', () => {
    const opts = agentOptions(client, { tools: [fakeTool({ name: 'Read' })] });
    const parts = requestParts([{ role: 'user', content: 'hi' }], opts);
    expect(parts).toEqual({
      tools: [{ name: 'Read', description: 'fake Read', input_schema: expect.any(Object), cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }],
      betas: [],
      notLoaded: new Set(),
    });
  });
});

describe('tool references in the conversation', () => {
  it('reads the loaded tools back from every tool_reference', () => {
    expect([...loadedToolNames([...CONVERSATION, search('toolu_2', 'x'), { role: 'user', content: [loaded('toolu_2', 'mcp__srv__beta', 'Read')] }])]).toEqual([
      'mcp__srv__alpha',
      'mcp__srv__beta',
      'Read',
    ]);
    expect(loadedToolNames([{ role: 'user', content: 'select:mcp__srv__alpha' }]).size).toBe(0);
  });

  it('moves what else a result holds (a hook’s context) after the results, and notes a tool gone', () => {
    const withContext: ContentBlock = {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'tool_reference', tool_name: 'a' },
        { type: 'tool_reference', tool_name: 'gone' },
        { type: 'text', text: 'hook says hi' },
      ],
    };
    const out = prepareMessages([{ role: 'user', content: 'x' }, search('toolu_1', 'q'), { role: 'user', content: [withContext] }], {
      on: true,
      deferred: ['a'],
      sent: new Set(['a']),
    });
    expect(out[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: 'a' }] },
      { type: 'text', text: 'hook says hi' },
      { type: 'text', text: 'gone is not available any more.' },
    ]);
    const none = prepareMessages([{ role: 'user', content: 'x' }, search('toolu_1', 'q'), { role: 'user', content: [loaded('toolu_1', 'gone')] }], {
      on: true,
      deferred: ['a'],
      sent: new Set(['a']),
    });
    expect(none[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'gone is not available any more.' }] }]);
  });
});
