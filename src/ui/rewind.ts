/**
 * Rewinding the conversation (Esc Esc): each prompt is marked where it went in (the number of
 * messages, and of blocks in a user message it joined), and a rewind cuts back to that point,
 * which was a valid conversation when the prompt was sent.
 */
import type { ApiMessage } from '../core/events.js';

export interface PromptMark {
  text: string;
  /** Messages before the prompt. */
  at: number;
  /** When the prompt joined a user message (after tool results): the blocks it had before. */
  blocks?: number;
}

export function markPrompt(messages: readonly ApiMessage[], text: string): PromptMark {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return { text, at: messages.length };
  return { text, at: messages.length, blocks: typeof last.content === 'string' ? 1 : last.content.length };
}

export function rewindTo(messages: ApiMessage[], mark: PromptMark): void {
  messages.splice(mark.at);
  const last = messages[messages.length - 1];
  if (mark.blocks === undefined || !last || last.role !== 'user') return;
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  last.content = blocks.slice(0, mark.blocks);
}

export function oneLine(text: string, max = 60): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
