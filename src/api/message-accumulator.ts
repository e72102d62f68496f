/**
 * Builds the assistant message from raw SSE events, block by block, and tells the caller as soon as
 * a tool_use block is complete (so the scheduler can start it while the rest still streams).
 */
import type { ContentBlock } from '../base/events.js';
import { emptyUsage, type Usage } from '../base/usage.js';

export interface CompletedToolUse {
  id: string;
  name: string;
  input: unknown;
  /** Set when the streamed JSON could not be parsed; the runner turns it into an input error. */
  inputError?: string;
}

type Partial =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; input: unknown; server?: boolean }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown };

export class MessageAccumulator {
  id = '';
  model = '';
  stopReason: string | null = null;
  usage: Usage = emptyUsage();
  /** Searches the API's web_search tool ran for this message (usage.server_tool_use). */
  webSearchRequests = 0;
  private readonly blocks: Array<Partial | undefined> = [];
  private readonly done = new Set<number>();

  /** Feeds one raw event; returns a finished tool_use when this event completed one. */
  push(event: any): { text?: string; thinking?: string; toolUse?: CompletedToolUse } {
    switch (event.type) {
      case 'message_start':
        this.id = event.message?.id ?? '';
        this.model = event.message?.model ?? '';
        this.usage = mergeUsage(this.usage, event.message?.usage);
        return {};
      case 'content_block_start':
        this.blocks[event.index] = startBlock(event.content_block);
        return {};
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop':
        return this.stop(event.index);
      case 'message_delta':
        if (event.delta?.stop_reason !== undefined) this.stopReason = event.delta.stop_reason;
        this.usage = mergeUsage(this.usage, event.usage);
        this.webSearchRequests = event.usage?.server_tool_use?.web_search_requests ?? this.webSearchRequests;
        return {};
      default:
        return {};
    }
  }

  private delta(index: number, delta: any): { text?: string; thinking?: string } {
    const b = this.blocks[index];
    if (!b || !delta) return {};
    if (delta.type === 'text_delta' && b.type === 'text') {
      b.text += delta.text;
      return { text: delta.text };
    }
    if (delta.type === 'thinking_delta' && b.type === 'thinking') {
      b.thinking += delta.thinking;
      return { thinking: delta.thinking };
    }
    if (delta.type === 'signature_delta' && b.type === 'thinking') b.signature += delta.signature;
    if (delta.type === 'input_json_delta' && b.type === 'tool_use') b.json += delta.partial_json;
    return {};
  }

  private stop(index: number): { toolUse?: CompletedToolUse } {
    const b = this.blocks[index];
    this.done.add(index);
    if (!b || b.type !== 'tool_use') return {};
    // A server tool's call is the API's to run: its input is kept, and nothing runs here.
    if (b.server) {
      b.input = parseOr(b.json, b.input ?? {});
      return {};
    }
    const text = b.json.trim();
    if (text === '') {
      b.input = b.input ?? {};
      return { toolUse: { id: b.id, name: b.name, input: b.input } };
    }
    try {
      b.input = JSON.parse(text);
      return { toolUse: { id: b.id, name: b.name, input: b.input } };
    } catch (err) {
      b.input = {};
      return { toolUse: { id: b.id, name: b.name, input: {}, inputError: `the tool input is not valid JSON (${(err as Error).message})` } };
    }
  }

  /** Completed tool uses so far (used when a stream drops after tools started). */
  completedToolUses(): CompletedToolUse[] {
    const out: CompletedToolUse[] = [];
    this.blocks.forEach((b, i) => {
      if (b?.type === 'tool_use' && !b.server && this.done.has(i)) out.push({ id: b.id, name: b.name, input: b.input });
    });
    return out;
  }

  /** The message content. With `onlyComplete`, blocks whose stream did not finish are left out. */
  content(onlyComplete = false): ContentBlock[] {
    const out: ContentBlock[] = [];
    this.blocks.forEach((_, i) => {
      if (onlyComplete && !this.done.has(i)) return;
      const block = this.block(i);
      if (block) out.push(block);
    });
    return out;
  }

  /** The block at `index` as it stands (an empty text block is none). */
  block(index: number): ContentBlock | undefined {
    const b = this.blocks[index];
    if (!b) return undefined;
    if (b.type === 'text') return b.text ? { type: 'text', text: b.text } : undefined;
    if (b.type === 'thinking') return { type: 'thinking', thinking: b.thinking, signature: b.signature };
    if (b.type === 'redacted_thinking') return { type: 'redacted_thinking', data: b.data };
    if (b.type === 'web_search_tool_result') return { type: 'web_search_tool_result', tool_use_id: b.tool_use_id, content: b.content };
    return { type: b.server ? 'server_tool_use' : 'tool_use', id: b.id, name: b.name, input: b.input ?? {} };
  }

  text(): string {
    return this.blocks.map((b) => (b?.type === 'text' ? b.text : '')).join('');
  }
}

function startBlock(block: any): Partial | undefined {
  if (!block) return undefined;
  if (block.type === 'text') return { type: 'text', text: block.text ?? '' };
  if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' };
  if (block.type === 'redacted_thinking') return { type: 'redacted_thinking', data: block.data ?? '' };
  if (block.type === 'tool_use' || block.type === 'server_tool_use') {
    const hasInput = block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0;
    return {
      type: 'tool_use',
      id: block.id,
      name: block.name,
      json: hasInput ? JSON.stringify(block.input) : '',
      input: undefined,
      ...(block.type === 'server_tool_use' ? { server: true } : {}),
    };
  }
  if (block.type === 'web_search_tool_result') return { type: 'web_search_tool_result', tool_use_id: block.tool_use_id, content: block.content };
  return undefined;
}

function parseOr(json: string, fallback: unknown): unknown {
  try {
    return json.trim() ? JSON.parse(json) : fallback;
  } catch {
    return fallback;
  }
}

function mergeUsage(a: Usage, b: any): Usage {
  if (!b) return a;
  return {
    input_tokens: b.input_tokens ?? a.input_tokens,
    output_tokens: b.output_tokens ?? a.output_tokens,
    cache_creation_input_tokens: b.cache_creation_input_tokens ?? a.cache_creation_input_tokens,
    cache_read_input_tokens: b.cache_read_input_tokens ?? a.cache_read_input_tokens,
  };
}
