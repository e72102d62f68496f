import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpCallResult, McpCallTarget, McpToolInfo } from '../../../src/mcp/types.js';
import { mcpTool, mcpToolName, normalizeName } from '../../../src/mcp/tool.js';
import { inputValidator } from '../../../src/base/schema-check.js';
import { drainCall, type ToolProgress } from '../../../src/base/tool.js';
import { createToolEnv, type ToolEnv } from '../../support/tool-context.js';

type Progress = { progress: number; total?: number; message?: string };

interface FakeTarget extends McpCallTarget {
  calls: Array<{ name: string; args: Record<string, unknown>; signal: AbortSignal }>;
  validatorSchemas: Array<Record<string, unknown>>;
}

function fakeTarget(opts: { result?: McpCallResult; progress?: Progress[]; fail?: Error; validator?: 'ajv' | 'none' | 'reject' } = {}): FakeTarget {
  const target: FakeTarget = {
    calls: [],
    validatorSchemas: [],
    async callTool(name, args, o) {
      target.calls.push({ name, args, signal: o.signal });
      for (const p of opts.progress ?? []) {
        await new Promise((r) => setTimeout(r, 1));
        o.onProgress(p);
      }
      if (opts.fail) throw opts.fail;
      return opts.result ?? { content: [{ type: 'text', text: 'done' }] };
    },
    async validator(schema) {
      target.validatorSchemas.push(schema);
      if (opts.validator === 'reject') throw new Error('no validator');
      return opts.validator === 'none' ? undefined : inputValidator(Ajv, schema);
    },
  };
  return target;
}

const info = (over: Partial<McpToolInfo> = {}): McpToolInfo => ({
  name: 'search',
  description: 'Searches things.',
  inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  ...over,
});

const opts = { maxOutputChars: 1000 };
const descCtx = { cwd: '/', platform: 'linux' };

let env: ToolEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});
const ctx = () => (env ??= createToolEnv()).nextCall();

describe('mcpToolName / normalizeName', () => {
  it('builds mcp__server__tool', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('my-server', 'get-thing')).toBe('mcp__my-server__get-thing');
  });

  it('characters outside [a-zA-Z0-9_-] become _', () => {
    expect(normalizeName('a.b c/d:é')).toBe('a_b_c_d__');
    expect(normalizeName('ok_Name-09')).toBe('ok_Name-09');
    expect(mcpToolName('my server', 'tool.v2')).toBe('mcp__my_server__tool_v2');
  });
});

describe('mcpTool: description and schema', () => {
  it('is named after the server and the tool', () => {
    expect(mcpTool('srv.x', info(), fakeTarget(), opts).name).toBe('mcp__srv_x__search');
  });

  it('keeps a short description, cuts a long one at 2048 characters', () => {
    expect(mcpTool('s', info({ description: '  Finds.  ' }), fakeTarget(), opts).description(descCtx)).toBe('Finds.');
    const long = 'd'.repeat(3000);
    expect(mcpTool('s', info({ description: long }), fakeTarget(), opts).description(descCtx)).toBe(`${'d'.repeat(2048)}…`);
    const exact = 'e'.repeat(2048);
    expect(mcpTool('s', info({ description: exact }), fakeTarget(), opts).description(descCtx)).toBe(exact);
  });

  it('a missing description names the tool and its server', () => {
    expect(mcpTool('s', info({ description: undefined }), fakeTarget(), opts).description(descCtx)).toBe('search (from the MCP server s)');
    expect(mcpTool('s', info({ description: '   ' }), fakeTarget(), opts).description(descCtx)).toBe('search (from the MCP server s)');
  });

  it('sends the server schema without $schema, always with type object', () => {
    expect(mcpTool('s', info(), fakeTarget(), opts).inputJsonSchema).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
    expect(mcpTool('s', info({ inputSchema: { properties: { a: {} } } }), fakeTarget(), opts).inputJsonSchema).toEqual({
      properties: { a: {} },
      type: 'object',
    });
    expect(mcpTool('s', info({ inputSchema: undefined }), fakeTarget(), opts).inputJsonSchema).toEqual({ type: 'object', properties: {} });
  });

  it('accepts any object through its zod schema (the JSON Schema does the checking)', () => {
    const tool = mcpTool('s', info(), fakeTarget(), opts);
    expect(tool.inputSchema.safeParse({ anything: [1, 2] }).success).toBe(true);
    expect(tool.inputSchema.safeParse('text').success).toBe(false);
  });
});

describe('mcpTool: flags and permissions', () => {
  it('is deferred (tool search) unless _meta anthropic/alwaysLoad is true; anthropic/searchHint is kept, one-spaced', () => {
    expect(mcpTool('s', info(), fakeTarget(), opts).shouldDefer).toBe(true);
    expect(mcpTool('s', info({ _meta: { 'anthropic/alwaysLoad': 'yes' } }), fakeTarget(), opts).shouldDefer).toBe(true);
    expect(mcpTool('s', info({ _meta: { 'anthropic/alwaysLoad': true } }), fakeTarget(), opts).shouldDefer).toBe(false);
    expect(mcpTool('s', info({ _meta: { 'anthropic/searchHint': ' pull  request\nreview ' } }), fakeTarget(), opts).searchHint).toBe('pull request review');
    expect(mcpTool('s', info({ _meta: { 'anthropic/searchHint': 3 } }), fakeTarget(), opts).searchHint).toBeUndefined();
  });

  it('is read-only and concurrency-safe only when the server says readOnlyHint: true', () => {
    const ro = mcpTool('s', info({ annotations: { readOnlyHint: true } }), fakeTarget(), opts);
    expect([ro.isReadOnly({}), ro.isConcurrencySafe({})]).toEqual([true, true]);
    for (const annotations of [undefined, { readOnlyHint: false }, { destructiveHint: false }]) {
      const t = mcpTool('s', info({ annotations }), fakeTarget(), opts);
      expect([t.isReadOnly({}), t.isConcurrencySafe({})]).toEqual([false, false]);
    }
  });

  it('is destructive when destructiveHint is true', () => {
    expect(mcpTool('s', info({ annotations: { destructiveHint: true } }), fakeTarget(), opts).isDestructive?.({})).toBe(true);
    expect(mcpTool('s', info(), fakeTarget(), opts).isDestructive?.({})).toBe(false);
  });

  it('requires a person when _meta asks for user interaction', () => {
    const c = ctx();
    const asks = mcpTool('s', info({ _meta: { 'anthropic/requiresUserInteraction': true } }), fakeTarget(), opts);
    expect(asks.requiresPerson?.({}, c)).toBe('the MCP server s asks for a person to approve every call of search');
    for (const _meta of [undefined, {}, { 'anthropic/requiresUserInteraction': 'true' }]) {
      expect(mcpTool('s', info({ _meta }), fakeTarget(), opts).requiresPerson?.({}, c)).toBeUndefined();
    }
  });

  it('asks for permission, suggesting its own name as the rule', async () => {
    const tool = mcpTool('gh', info(), fakeTarget(), opts);
    expect(await tool.checkPermissions({ q: 'x' }, ctx())).toEqual({
      behavior: 'ask',
      reason: 'search is a tool of the MCP server gh',
      suggestions: ['mcp__gh__search'],
    });
  });

  it('summarises the call with the server, the tool and its arguments', () => {
    const tool = mcpTool('gh', info(), fakeTarget(), opts);
    expect(tool.summary({})).toBe('gh · search');
    expect(tool.summary({ q: 'bug' })).toBe('gh · search {"q":"bug"}');
    const long = tool.summary({ q: 'z'.repeat(200) });
    expect(long.length).toBe('gh · search '.length + 80);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('mcpTool: validateInput', () => {
  it('checks the input with the validator the target gives for the sent schema', async () => {
    const target = fakeTarget();
    const tool = mcpTool('s', info(), target, opts);
    expect(await tool.validateInput?.({ q: 'ok' }, ctx())).toEqual({ ok: true });
    expect(await tool.validateInput?.({ q: 1 }, ctx())).toEqual({ ok: false, message: 'Invalid input for mcp__s__search:\nq: expected string, got integer' });
    expect(await tool.validateInput?.({}, ctx())).toEqual({ ok: false, message: 'Invalid input for mcp__s__search:\nq is required' });
    expect(target.validatorSchemas).toEqual([tool.inputJsonSchema]);
  });

  it('lists every problem, one a line', async () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['b'], additionalProperties: false };
    const tool = mcpTool('s', info({ inputSchema: schema }), fakeTarget(), opts);
    const r = await tool.validateInput?.({ a: 'x', c: 1 }, ctx());
    expect(r?.ok).toBe(false);
    expect(r && !r.ok ? r.message.split('\n').slice(1).sort() : []).toEqual(['a: expected number, got string', 'b is required', 'unexpected field c']);
  });

  it('without a validator (none, or it failed to load) every input passes', async () => {
    for (const validator of ['none', 'reject'] as const) {
      const tool = mcpTool('s', info(), fakeTarget({ validator }), opts);
      expect(await tool.validateInput?.({ q: 1 }, ctx())).toEqual({ ok: true });
    }
  });
});

describe('mcpTool: call', () => {
  it('calls the target with the tool name, the input and the signal, and returns its result', async () => {
    const result: McpCallResult = { content: [{ type: 'text', text: 'found 3' }] };
    const target = fakeTarget({ result });
    const tool = mcpTool('s', info(), target, opts);
    const c = ctx();
    const progress: ToolProgress[] = [];
    expect(await drainCall(tool.call({ q: 'x' }, c), (p) => progress.push(p))).toEqual(result);
    expect(progress).toEqual([]);
    expect(target.calls).toEqual([{ name: 'search', args: { q: 'x' }, signal: c.signal }]);
  });

  it('yields the server progress before returning the result', async () => {
    const target = fakeTarget({ progress: [{ progress: 1, total: 4 }, { progress: 2, total: 4, message: 'halfway' }, { progress: 7 }] });
    const tool = mcpTool('s', info(), target, opts);
    const events: Array<ToolProgress | 'result'> = [];
    const gen = tool.call({ q: 'x' }, ctx());
    const out = await drainCall(gen, (p) => events.push(p));
    events.push('result');
    expect(out).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(events).toEqual([
      { type: 'progress', message: '1/4', data: { progress: 1, total: 4 } },
      { type: 'progress', message: 'halfway', data: { progress: 2, total: 4, message: 'halfway' } },
      { type: 'progress', message: '7', data: { progress: 7 } },
      'result',
    ]);
  });

  it('a failed call throws, after the progress it gave', async () => {
    const tool = mcpTool('s', info(), fakeTarget({ progress: [{ progress: 1 }], fail: new Error('server exploded') }), opts);
    const progress: ToolProgress[] = [];
    await expect(drainCall(tool.call({ q: 'x' }, ctx()), (p) => progress.push(p))).rejects.toThrow('server exploded');
    expect(progress).toHaveLength(1);
  });

  it('turns the result into the model result with the output limit, and describes it for the person', () => {
    const tool = mcpTool('s', info(), fakeTarget(), { maxOutputChars: 5 });
    expect(tool.toModelResult({ content: [{ type: 'text', text: '0123456789' }] }, {})).toEqual({
      content: '01234\n[output cut at 5 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]',
    });
    expect(tool.toModelResult({}, {})).toEqual({ content: 'mcp__s__search returned no content' });
    expect(tool.display?.({ isError: true }, {})).toEqual({ summary: 'search reported an error' });
    expect(tool.display?.({ content: [] }, {})).toEqual({ summary: 'search answered' });
  });
});
