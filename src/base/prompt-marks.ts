/**
 * Where each prompt went into the conversation, for rewinding to before it: the number of messages
 * (and of blocks in a user message it joined), which was a valid conversation when the prompt was
 * sent, and the file checkpoint taken with it.
 */
import type { ApiMessage } from './events.js';

export interface PromptMark {
  text: string;
  /** The file checkpoint taken as the prompt went in (core/file-history.ts); undefined: none was. */
  checkpoint?: number;
  /** Messages before the prompt; undefined once a compaction replaced them (only its code can go back). */
  at?: number;
  /** When the prompt joined a user message (after tool results): the blocks it had before. */
  blocks?: number;
}

export function markPrompt(messages: readonly ApiMessage[], text: string, checkpoint?: number): PromptMark {
  const cp = checkpoint === undefined ? {} : { checkpoint };
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return { text, ...cp, at: messages.length };
  return { text, ...cp, at: messages.length, blocks: typeof last.content === 'string' ? 1 : last.content.length };
}

/** Cuts `messages` back to where `mark` was made. A mark without a place in the conversation changes nothing. */
export function rewindTo(messages: ApiMessage[], mark: PromptMark): void {
  if (mark.at === undefined) return;
  messages.splice(mark.at);
  const last = messages[messages.length - 1];
  if (mark.blocks === undefined || !last || last.role !== 'user') return;
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  last.content = blocks.slice(0, mark.blocks);
}

/** After a compaction: the conversation before it is a summary, so the marks keep only their checkpoints. */
export function compactedMarks(marks: PromptMark[]): void {
  for (let i = marks.length - 1; i >= 0; i--) {
    const m = marks[i]!;
    if (m.checkpoint === undefined) marks.splice(i, 1);
    else marks[i] = { text: m.text, checkpoint: m.checkpoint };
  }
}
