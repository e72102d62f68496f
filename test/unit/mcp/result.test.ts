import { describe, expect, it } from 'vitest';
import { mcpResultToModel } from '../../../src/mcp/result.js';
import type { McpCallResult } from '../../../src/mcp/types.js';
import type { ModelResult } from '../../../src/base/events.js';

const toModel = (result: McpCallResult, maxChars = 10_000) => mcpResultToModel(result, { maxChars, toolName: 'mcp__srv__tool' });

const blocksOf = (r: ModelResult) => (typeof r.content === 'string' ? [{ type: 'text' as const, text: r.content }] : r.content);

describe('mcpResultToModel', () => {
  it('a single text block becomes a plain string', () => {
    expect(toModel({ content: [{ type: 'text', text: 'hello' }] })).toEqual({ content: 'hello' });
  });

  it('several text blocks are joined with newlines into one string', () => {
    expect(
      toModel({
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
          { type: 'text', text: 'three' },
        ],
      }),
    ).toEqual({ content: 'one\ntwo\nthree' });
  });

  it('images of the types the API takes stay image blocks', () => {
    for (const mimeType of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expect(toModel({ content: [{ type: 'image', data: 'AAAA', mimeType }] })).toEqual({
        content: [{ type: 'image', source: { type: 'base64', media_type: mimeType, data: 'AAAA' } }],
      });
    }
  });

  it('text around an image stays in separate text blocks, in order', () => {
    const r = toModel({
      content: [
        { type: 'text', text: 'before' },
        { type: 'text', text: 'still before' },
        { type: 'image', data: 'QQ==', mimeType: 'image/png' },
        { type: 'text', text: 'after' },
      ],
    });
    expect(r.content).toEqual([
      { type: 'text', text: 'before\nstill before' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'QQ==' } },
      { type: 'text', text: 'after' },
    ]);
  });

  it('other image types, and images without data, are described as text', () => {
    expect(toModel({ content: [{ type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' }] })).toEqual({
      content: '[image (image/svg+xml) the model cannot be shown]',
    });
    expect(toModel({ content: [{ type: 'image', mimeType: 'image/png' }] })).toEqual({ content: '[image (image/png) the model cannot be shown]' });
    expect(toModel({ content: [{ type: 'image', data: 'AA==' }] })).toEqual({ content: '[image (unknown type) the model cannot be shown]' });
  });

  it('audio is described as text', () => {
    expect(toModel({ content: [{ type: 'audio', data: 'AA==', mimeType: 'audio/wav' }] })).toEqual({
      content: '[audio (audio/wav) the model cannot be shown]',
    });
  });

  it('an embedded text resource is included with its uri', () => {
    expect(toModel({ content: [{ type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'file body' } }] })).toEqual({
      content: 'file:///a.txt\nfile body',
    });
    expect(toModel({ content: [{ type: 'resource', resource: { text: 'no uri' } }] })).toEqual({ content: 'no uri' });
  });

  it('an embedded binary resource is described', () => {
    expect(toModel({ content: [{ type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/octet-stream', blob: 'AAA=' } }] })).toEqual({
      content: '[binary resource file:///a.bin (application/octet-stream, 2 bytes) the model cannot be shown]',
    });
  });

  it('a resource link is described with its name and uri', () => {
    expect(toModel({ content: [{ type: 'resource_link', name: 'readme', uri: 'file:///README.md' }] })).toEqual({
      content: '[resource readme file:///README.md]',
    });
    expect(toModel({ content: [{ type: 'resource_link', uri: 'file:///x' }] })).toEqual({ content: '[resource file:///x]' });
  });

  it('an unknown content type is named', () => {
    expect(toModel({ content: [{ type: 'hologram' }] })).toEqual({ content: '[hologram content]' });
  });

  it('structuredContent is used only when there is no content', () => {
    expect(toModel({ structuredContent: { temp: 21, unit: 'C' } })).toEqual({ content: '{"temp":21,"unit":"C"}' });
    expect(toModel({ content: [], structuredContent: [1, 2] })).toEqual({ content: '[1,2]' });
    expect(toModel({ content: [{ type: 'text', text: 'the text' }], structuredContent: { ignored: true } })).toEqual({ content: 'the text' });
  });

  it('an empty result says the tool returned nothing', () => {
    expect(toModel({})).toEqual({ content: 'mcp__srv__tool returned no content' });
    expect(toModel({ content: [] })).toEqual({ content: 'mcp__srv__tool returned no content' });
    expect(toModel({ content: [{ type: 'text', text: '' }, { type: 'text' }] })).toEqual({ content: 'mcp__srv__tool returned no content' });
  });

  it('isError is kept, with content or without', () => {
    expect(toModel({ content: [{ type: 'text', text: 'boom' }], isError: true })).toEqual({ content: 'boom', isError: true });
    expect(toModel({ isError: true })).toEqual({ content: 'mcp__srv__tool returned no content', isError: true });
    expect(toModel({ content: [{ type: 'text', text: 'fine' }], isError: false })).not.toHaveProperty('isError');
  });

  it('output over maxChars is cut, with a note naming the limit', () => {
    const r = toModel({ content: [{ type: 'text', text: 'x'.repeat(50) }] }, 20);
    expect(r.content).toBe(`${'x'.repeat(20)}\n[output cut at 20 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]`);
  });

  it('the budget is shared across blocks; later text is dropped once it is spent', () => {
    const r = toModel(
      {
        content: [
          { type: 'text', text: 'abcde' },
          { type: 'text', text: 'fghij' },
          { type: 'text', text: 'klm' },
        ],
      },
      8,
    );
    expect(r.content).toBe('abcde\nfg\n[output cut at 8 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]'); // the joining newline counts
    const exact = toModel(
      {
        content: [
          { type: 'text', text: 'abcd' },
          { type: 'text', text: 'more' },
        ],
      },
      4,
    );
    expect(exact.content).toBe('abcd\n[output cut at 4 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]');
  });

  it('output exactly at the limit is not cut', () => {
    expect(toModel({ content: [{ type: 'text', text: '12345' }] }, 5)).toEqual({ content: '12345' });
  });

  it('structuredContent counts against the limit too', () => {
    const r = toModel({ structuredContent: { long: 'y'.repeat(100) } }, 10);
    expect(r.content).toBe('{"long":"y\n[output cut at 10 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]');
  });

  it('when the last block is an image, the cut note is a text block of its own', () => {
    const r = toModel(
      {
        content: [
          { type: 'text', text: 'abcdef' },
          { type: 'image', data: 'AA==', mimeType: 'image/gif' },
        ],
      },
      3,
    );
    expect(r.content).toEqual([
      { type: 'text', text: 'abc' },
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'AA==' } },
      { type: 'text', text: '[output cut at 3 characters: MAX_MCP_OUTPUT_TOKENS sets the limit]' },
    ]);
  });

  it('never produces an empty text block', () => {
    const cases: McpCallResult[] = [
      {
        content: [
          { type: 'text', text: '' },
          { type: 'image', data: 'AA==', mimeType: 'image/png' },
          { type: 'text', text: '' },
        ],
      },
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }, { type: 'text' }] },
      {
        content: [
          { type: 'resource', resource: { text: '' } },
          { type: 'image', data: 'AA==', mimeType: 'image/webp' },
        ],
      },
      {
        content: [
          { type: 'text', text: 'x'.repeat(10) },
          { type: 'image', data: 'AA==', mimeType: 'image/png' },
          { type: 'text', text: 'y' },
        ],
      },
    ];
    for (const c of cases) {
      for (const max of [0, 5, 1000]) {
        for (const b of blocksOf(toModel(c, max))) if (b.type === 'text') expect(b.text).not.toBe('');
      }
    }
    expect(toModel(cases[0]!).content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }]);
  });
});
