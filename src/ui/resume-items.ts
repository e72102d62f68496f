/**
 * A resumed conversation, shown as finished items: user prompts, assistant text, and each tool call
 * with its result (gate traces are not in the messages; /trace shows only calls of this run).
 */
import type { ApiMessage, ContentBlock } from '../base/events.js';
import type { NewItem } from './types.js';
import { taskNote } from './agent-state.js';

const INTERRUPTED = '[Request interrupted by the user]';

export function itemsFromMessages(messages: readonly ApiMessage[], limit = 200): { items: NewItem[]; hidden: number } {
  const results = new Map<string, Extract<ContentBlock, { type: 'tool_result' }>>();
  for (const m of messages) for (const b of blocks(m)) if (b.type === 'tool_result') results.set(b.tool_use_id, b);
  const items: NewItem[] = [];
  for (const m of messages) {
    for (const b of blocks(m)) {
      if (b.type === 'text' && b.text.trim()) {
        if (m.role === 'user')
          items.push(b.text.trim() === INTERRUPTED ? { kind: 'interrupted' } : (noticeItem(b.text) ?? { kind: 'user', text: b.text.trim() }));
        else items.push({ kind: 'assistant', text: b.text.trim() });
      } else if (b.type === 'tool_use') {
        const r = results.get(b.id);
        items.push({
          kind: 'tool',
          tool: {
            toolUseId: b.id,
            name: b.name,
            input: b.input,
            summary: b.name,
            result: r ? { content: r.content, ...(r.is_error ? { isError: true } : {}) } : { content: '(no result)', isError: true },
            trace: [],
            durationMs: 0,
          },
        });
      }
    }
  }
  const hidden = Math.max(0, items.length - limit);
  return { items: items.slice(hidden), hidden };
}

/** A background task's notice, shown as the line the app showed when it came. */
function noticeItem(text: string): NewItem | undefined {
  if (!text.startsWith('<task-notification>')) return undefined;
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1] ?? '';
  const status = field('status');
  const summary = field('summary').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return {
    kind: 'info',
    tone: status === 'failed' ? 'warning' : 'info',
    text: taskNote(field('task-id'), status === 'failed' || status === 'stopped' ? status : 'completed', summary),
  };
}

function blocks(m: ApiMessage): ContentBlock[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
}
