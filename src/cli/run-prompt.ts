/**
 * One prompt through the loop: UserPromptSubmit hooks, append the user message, run the agent,
 * and keep running totals. Shared by print mode and the interactive app.
 */
import { answerPendingCalls, runAgent } from '../core/agent-loop.js';
import type { AgentOptions } from '../core/agent-options.js';
import { appendUser } from '../core/conversation.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../core/events.js';
import { addUsage, emptyUsage, type Usage } from '../api/usage.js';
import { attachMentions } from './mentions.js';

export interface Totals {
  usage: Usage;
  costUsd: number;
  apiMs: number;
  byModel: Map<string, { usage: Usage; costUsd: number }>;
}

export function emptyTotals(): Totals {
  return { usage: emptyUsage(), costUsd: 0, apiMs: 0, byModel: new Map() };
}

export function addToTotals(t: Totals, ev: Extract<AgentEvent, { type: 'usage' }>): void {
  t.costUsd += ev.costUsd;
  t.apiMs += ev.apiDurationMs;
  const m = t.byModel.get(ev.model) ?? { usage: emptyUsage(), costUsd: 0 };
  m.usage = addUsage(m.usage, ev.usage);
  m.costUsd += ev.costUsd;
  t.byModel.set(ev.model, m);
}

/**
 * Runs one prompt. Yields the loop's events; a prompt blocked by a hook yields a done event at once.
 * A call a hook deferred (a resumed session) runs first; an empty prompt then just lets the model go on.
 */
export async function* runPrompt(
  messages: ApiMessage[],
  prompt: string | ContentBlock[],
  opts: AgentOptions,
  onUserMessage?: (m: ApiMessage) => void,
): AsyncGenerator<AgentEvent, void> {
  const ended = yield* answerPendingCalls(messages, opts);
  if (ended) return yield ended;
  if (prompt === '') return yield* runAgent(messages, opts);
  const text = typeof prompt === 'string' ? prompt : prompt.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  let extra: string | undefined;
  if (opts.hooks.userPromptSubmit) {
    const out = await opts.hooks.userPromptSubmit(text, opts.signal);
    for (const n of opts.hooks.drainNotices?.() ?? []) yield { type: 'warning', message: n };
    if (out.block || out.stop) {
      yield { type: 'error', message: `prompt blocked by a UserPromptSubmit hook: ${out.block ?? out.stop}` };
      yield { type: 'done', reason: 'hook_stopped', numTurns: 0, finalText: '', error: out.block ?? out.stop };
      return;
    }
    extra = out.additionalContext;
  }
  // `@path` mentions: the files go along with the prompt (mentions.ts).
  const attached = typeof prompt === 'string' && prompt.includes('@') ? await attachMentions(prompt, opts) : [];
  appendUser(messages, attached.length ? [{ type: 'text', text: prompt as string }, ...attached] : prompt);
  if (extra) appendUser(messages, extra);
  const last = messages[messages.length - 1];
  if (last && onUserMessage) onUserMessage(last);
  yield* runAgent(messages, opts);
}
