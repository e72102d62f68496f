/**
 * The message list and its invariants: roles alternate, and every tool_use in an assistant message
 * is answered by exactly one tool_result, first in the next user message, in the same order.
 */
import type { ApiMessage, ContentBlock } from './events.js';

type UserContent = Exclude<ApiMessage['content'], string>;

/**
 * Appends user content, merging into the last message when it is already a user message. With
 * `newlineAtSeam` (a prompt joining a resumed conversation's last user text), the text it follows
 * ends with a line break, as Claude Code sends such a seam.
 */
export function appendUser(messages: ApiMessage[], content: string | UserContent, opts: { newlineAtSeam?: boolean } = {}): void {
  const blocks: UserContent = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const last = messages[messages.length - 1];
  if (last && last.role === 'user') {
    const prev: UserContent = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
    const end = prev[prev.length - 1];
    const seam = opts.newlineAtSeam && end?.type === 'text' && !end.text.endsWith('\n') && blocks[0]?.type === 'text';
    last.content = [...(seam ? [...prev.slice(0, -1), { ...end, text: `${end.text}\n` }] : prev), ...blocks];
    return;
  }
  messages.push({ role: 'user', content: blocks });
}

/** tool_use ids in a message that have no tool_result in the following message. */
export function unansweredToolUses(messages: ApiMessage[]): string[] {
  const missing: string[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || typeof m.content === 'string') return;
    const next = messages[i + 1];
    const answered = new Set(
      next && typeof next.content !== 'string'
        ? next.content.filter((b): b is Extract<ContentBlock, { type: 'tool_result' }> => b.type === 'tool_result').map((b) => b.tool_use_id)
        : [],
    );
    for (const b of m.content) if (b.type === 'tool_use' && !answered.has(b.id)) missing.push(b.id);
  });
  return missing;
}

/**
 * A copy of the messages for the request, with a cache breakpoint on the latest turn
 * (the stored conversation never carries cache_control).
 */
export function withCacheBreakpoint(messages: ApiMessage[]): ApiMessage[] {
  if (!messages.length) return messages;
  const out = messages.slice();
  const lastIndex = out.length - 1;
  const last = out[lastIndex]!;
  const blocks: ContentBlock[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content.slice();
  const i = blocks.length - 1;
  const b = blocks[i];
  if (b && (b.type === 'text' || b.type === 'tool_result')) blocks[i] = { ...b, cache_control: { type: 'ephemeral' } };
  out[lastIndex] = { ...last, content: blocks };
  return out;
}

const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]}]+/gi;

/** Collects URLs from text into `seen` (trailing punctuation trimmed). */
export function collectUrls(text: string, seen: Set<string>): void {
  for (const m of text.matchAll(URL_RE)) {
    const url = m[0].replace(/[.,;:!?]+$/, '');
    seen.add(url);
    try {
      seen.add(new URL(url).href);
    } catch {
      // not a valid URL: keep the raw text only
    }
  }
}

/** The text of a tool_result or user content, for URL collection. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: any) => (b?.type === 'text' ? b.text : b?.type === 'tool_result' ? textOf(b.content) : '')).join('\n');
}
