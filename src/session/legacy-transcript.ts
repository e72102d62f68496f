/**
 * Transcripts an older wicket wrote under `<wicket home>/sessions/<slug>/`: user and assistant lines
 * in the order they happened (no `parentUuid`), and its own `prompt_checkpoint`, `conversation_reset`,
 * `compact_boundary` and `end` lines. Read so that those sessions can still be resumed.
 */
import { unansweredToolUses } from '../base/conversation.js';
import type { ApiMessage } from '../base/events.js';
import { compactedMarks, markPrompt, type PromptMark } from '../base/prompt-marks.js';
import { appendMessage } from './transcript.js';

export function readLegacySession(entries: readonly Record<string, unknown>[], keepDeferred: boolean): { messages: ApiMessage[]; marks: PromptMark[] } {
  const messages: ApiMessage[] = [];
  let marks: PromptMark[] = [];
  let deferredId: string | undefined;
  for (const entry of entries) {
    if (entry.type === 'end') deferredId = (entry.deferred_tool_use as { id?: string } | undefined)?.id;
    else if (entry.type === 'user' || entry.type === 'assistant') deferredId = undefined;
    if (entry.type === 'conversation_reset') {
      messages.length = 0;
      marks = [];
    } else if (entry.type === 'compact_boundary') {
      messages.length = 0;
      compactedMarks(marks);
    } else if (entry.type === 'prompt_checkpoint' && typeof entry.prompt === 'string') {
      const checkpoint = typeof entry.checkpoint === 'number' ? entry.checkpoint : undefined;
      if (entry.code_only !== true) marks.push(markPrompt(messages, entry.prompt, checkpoint));
      else if (checkpoint !== undefined) marks.push({ text: entry.prompt, checkpoint });
    } else if ((entry.type === 'user' || entry.type === 'assistant') && isMessage(entry.message)) appendMessage(messages, entry.message);
  }
  const open = unansweredToolUses(messages);
  const keepOpen = keepDeferred && deferredId !== undefined && open.length === 1 && open[0] === deferredId;
  while (!keepOpen && messages.length && unansweredToolUses(messages).length) messages.pop();
  return { messages, marks };
}

export function isMessage(value: unknown): value is ApiMessage {
  if (!value || typeof value !== 'object') return false;
  const m = value as ApiMessage;
  return (m.role === 'user' || m.role === 'assistant') && (typeof m.content === 'string' || Array.isArray(m.content));
}
