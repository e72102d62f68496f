/**
 * An MCP `tools/call` result (or a `resources/read` one) → the `tool_result` the model reads: text
 * stays text, images stay images (the kinds the API takes), embedded resources become their text,
 * and anything else a line saying what it was. Output over the limit (MAX_MCP_OUTPUT_TOKENS) is cut
 * with a note.
 */
import type { ModelResult, ToolResultContent } from '../base/events.js';
import type { McpCallResult, McpContent, McpResourceContents } from './types.js';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

type Block = Exclude<ToolResultContent, string>[number];

export function mcpResultToModel(result: McpCallResult, opts: { maxChars: number; toolName: string }): ModelResult {
  const blocks: Block[] = [];
  let budget = opts.maxChars;
  let cut = false;
  const addText = (text: string) => {
    if (!text) return;
    const last = blocks[blocks.length - 1];
    if (last?.type === 'text') text = `\n${text}`;
    if (budget <= 0) {
      cut ||= text.length > 0;
      return;
    }
    if (text.length > budget) {
      cut = true;
      text = text.slice(0, budget);
    }
    budget -= text.length;
    if (last?.type === 'text') last.text += text;
    else blocks.push({ type: 'text', text });
  };
  const content = Array.isArray(result.content) ? result.content : [];
  for (const c of content) {
    if (c.type === 'image' && typeof c.data === 'string' && c.mimeType && IMAGE_TYPES.has(c.mimeType)) {
      blocks.push({ type: 'image', source: { type: 'base64', media_type: c.mimeType, data: c.data } });
    } else addText(textOf(c));
  }
  if (!content.length && result.structuredContent !== undefined) addText(JSON.stringify(result.structuredContent));
  if (cut) {
    const note = `[output cut at ${opts.maxChars} characters: MAX_MCP_OUTPUT_TOKENS sets the limit]`;
    const last = blocks[blocks.length - 1];
    if (last?.type === 'text') last.text += `\n${note}`;
    else blocks.push({ type: 'text', text: note });
  }
  if (!blocks.length) return { content: `${opts.toolName} returned no content`, ...(result.isError ? { isError: true } : {}) };
  const only = blocks.length === 1 ? blocks[0] : undefined;
  return { content: only?.type === 'text' ? only.text : blocks, ...(result.isError ? { isError: true } : {}) };
}

/**
 * A resource's contents for the model: text as text (each part under its URI when there are
 * several), images of the kinds the API takes as images, other binary content as a line saying what
 * it was and how big.
 */
export function resourceToModel(contents: McpResourceContents[], opts: { maxChars: number; uri: string }): ModelResult {
  const many = contents.length > 1;
  const content: McpContent[] = contents.map((c) => {
    if (typeof c.text === 'string') return { type: 'text', text: many ? `${c.uri}\n${c.text}` : c.text };
    if (typeof c.blob === 'string' && c.mimeType && IMAGE_TYPES.has(c.mimeType)) return { type: 'image', data: c.blob, mimeType: c.mimeType };
    return { type: 'resource', resource: c };
  });
  const result = mcpResultToModel({ content }, { maxChars: opts.maxChars, toolName: opts.uri });
  return content.length ? result : { content: `${opts.uri} has no content` };
}

/** Bytes a base64 text holds. */
function base64Bytes(b64: string): number {
  const clean = b64.replace(/\s/g, '');
  return Math.max(0, Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0));
}

function textOf(c: McpContent): string {
  switch (c.type) {
    case 'text':
      return c.text ?? '';
    case 'image':
      return `[image (${c.mimeType ?? 'unknown type'}) the model cannot be shown]`;
    case 'audio':
      return `[audio (${c.mimeType ?? 'unknown type'}) the model cannot be shown]`;
    case 'resource': {
      const r = c.resource ?? {};
      if (typeof r.text === 'string') return r.uri ? `${r.uri}\n${r.text}` : r.text;
      const size = typeof r.blob === 'string' ? `, ${base64Bytes(r.blob)} bytes` : '';
      return `[binary resource ${r.uri ?? ''} (${r.mimeType ?? 'unknown type'}${size}) the model cannot be shown]`;
    }
    case 'resource_link':
      return `[resource ${c.name ? `${c.name} ` : ''}${c.uri ?? ''}]`;
    default:
      return `[${c.type} content]`;
  }
}
