/**
 * One prompt through the loop: UserPromptSubmit hooks, append the user message, run the agent,
 * and keep running totals. Shared by print mode and the interactive app.
 */
import { answerPendingCalls, runAgent } from './agent-loop.js';
import type { AgentOptions } from './agent-options.js';
import { appendUser } from '../base/conversation.js';
import { hookEvents } from './loop-hooks.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../base/events.js';
import { addUsage, emptyUsage, type Usage } from '../base/usage.js';
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

export interface RunPromptOptions {
  /** Called with what the prompt added to the conversation (a new user message, or blocks joining the last one). */
  onUserMessage?: (m: ApiMessage) => void;
  /** The prompt as the person typed it (a custom command before expansion), for the rewind list. */
  shown?: string;
  /** A person's prompt starts a rewind point and a file checkpoint (default); a retry nudge does not. */
  checkpoint?: boolean;
  /** Text for the model that goes with the prompt (a UserPromptExpansion hook's context). */
  context?: string;
  /** The prompt goes as written: its `@path` mentions bring no files (a prompt a program composed). */
  verbatim?: boolean;
}

/** A prompt with the hook context that goes with it (print mode's expanded slash command). */
export interface PromptWithContext {
  prompt: string;
  context: string;
}

/**
 * Runs one prompt. Yields the loop's events; a prompt blocked by a hook yields a done event at once.
 * A call a hook deferred (a resumed session) runs first; an empty prompt then just lets the model go on.
 */
export async function* runPrompt(
  messages: ApiMessage[],
  prompt: string | ContentBlock[],
  opts: AgentOptions,
  run: RunPromptOptions = {},
): AsyncGenerator<AgentEvent, void> {
  // A skill's allowed-tools hold until this prompt's run ends.
  delete opts.state.turnAllow;
  try {
    yield* runPromptInner(messages, prompt, opts, run);
  } finally {
    delete opts.state.turnAllow;
  }
}

async function* runPromptInner(
  messages: ApiMessage[],
  prompt: string | ContentBlock[],
  opts: AgentOptions,
  run: RunPromptOptions,
): AsyncGenerator<AgentEvent, void> {
  const ended = yield* answerPendingCalls(messages, opts);
  if (ended) return yield ended;
  if (prompt === '') return yield* runAgent(messages, opts);
  const text = typeof prompt === 'string' ? prompt : prompt.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  let extra: string | undefined;
  if (opts.hooks.userPromptSubmit) {
    const out = await opts.hooks.userPromptSubmit(text, opts.signal);
    yield* hookEvents(opts.hooks);
    if (out.block || out.stop) {
      yield { type: 'error', message: `prompt blocked by a UserPromptSubmit hook: ${out.block ?? out.stop}` };
      // Claude Code's words for a blocked prompt, which the Agent SDK's result carries.
      const said = `UserPromptSubmit operation blocked by hook:\n${out.block ?? out.stop}\n\nOriginal prompt: ${text}`;
      yield { type: 'done', reason: 'hook_stopped', numTurns: 0, finalText: said, error: out.block ?? out.stop };
      return;
    }
    extra = out.additionalContext;
    if (out.sessionTitle) yield { type: 'session_title', title: out.sessionTitle };
  }
  // The start's instruction files: recorded with the first prompt; after a resume, those changed since come again before it.
  const given = opts.instructions?.atPrompt() ?? { blocks: [] };
  if (run.checkpoint !== false) {
    const checkpoint = opts.fileHistory?.checkpoint();
    if (checkpoint !== undefined) opts.snapshots?.begin(checkpoint);
    yield {
      type: 'prompt_checkpoint',
      prompt: run.shown ?? text,
      ...(checkpoint === undefined ? {} : { checkpoint }),
      ...(given.record ? { instructions: given.record } : {}),
    };
  }
  // `@path` mentions: the files go along with the prompt (mentions.ts).
  const attached = typeof prompt === 'string' && prompt.includes('@') && !run.verbatim ? await attachMentions(prompt, opts) : [];
  // Hook context: the expansion's, UserPromptSubmit's, then what waited for this prompt (DirectoryAdded).
  const context = [run.context, extra, opts.hooks.takeContext?.()].filter((c): c is string => Boolean(c));
  const added: Exclude<ApiMessage['content'], string> = [
    ...given.blocks.map((text) => ({ type: 'text' as const, text })),
    ...(typeof prompt === 'string' ? [{ type: 'text' as const, text: prompt }] : prompt),
    ...attached,
    ...context.map((text) => ({ type: 'text' as const, text })),
  ];
  appendUser(messages, added, { newlineAtSeam: true });
  // Only what was added: a resumed session joins it to the user message it follows.
  run.onUserMessage?.({ role: 'user', content: added });
  yield* runAgent(messages, opts);
}
