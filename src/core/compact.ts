/**
 * Compaction (PRODUCT.md §7): when the context fills, the conversation is replaced by a summary the
 * model writes of it, so the session goes on. Automatic when the last request's context passed the
 * threshold (checked before each request); by hand with /compact. A PreCompact hook may block it.
 * The request carries the session's own system prompt and tools, so it reuses their cache.
 */
import type { FinalMessage } from '../api/model-client.js';
import { totalTokens, type Usage } from '../base/usage.js';
import { usageEvent } from './usage-event.js';
import type { AgentOptions } from './agent-options.js';
import { monotonicMs } from '../base/clock.js';
import { contextWindowOf, effortFor } from '../base/models.js';
import { appendUser } from '../base/conversation.js';
import { requestParts } from './model-request.js';
import { instructionsAfterCompaction } from './instruction-touches.js';
import { errorMessage, FatalError } from '../base/errors.js';
import type { AgentEvent, ApiMessage } from '../base/events.js';

export type CompactTrigger = 'manual' | 'auto';

/** Tokens of the context a usage report describes: everything sent plus what came back. */
export function contextTokens(u: Usage): number {
  return totalTokens(u);
}

/** Room kept free below the window: the summary's own answer, and a margin. */
const SUMMARY_OUTPUT_TOKENS = 20_000;
const MARGIN_TOKENS = 13_000;

/**
 * The context size that triggers automatic compaction; undefined when it is turned off
 * (DISABLE_AUTO_COMPACT, DISABLE_COMPACT, settings autoCompactEnabled: false). The window comes from
 * CLAUDE_CODE_AUTO_COMPACT_WINDOW or settings autoCompactWindow (default: the model's window);
 * CLAUDE_AUTOCOMPACT_PCT_OVERRIDE can only lower the threshold.
 */
export function autoCompactThreshold(env: Record<string, string | undefined>, settings: Record<string, unknown>, model = ''): number | undefined {
  if (truthy(env.DISABLE_AUTO_COMPACT) || truthy(env.DISABLE_COMPACT) || settings.autoCompactEnabled === false) return undefined;
  const window = positive(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW) ?? positive(settings.autoCompactWindow) ?? contextWindowOf(model);
  const base = window - SUMMARY_OUTPUT_TOKENS - MARGIN_TOKENS;
  const pct = positive(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE);
  const lowered = pct !== undefined && pct < 100 ? Math.floor((window * pct) / 100) : base;
  return Math.max(1, Math.min(base, lowered));
}

export const CONTINUATION_PREFIX = 'This session continues an earlier conversation that ran out of context. What happened so far, summarised:';

export type CompactOutcome =
  | { ok: true; summary: string; preTokens: number; messages: ApiMessage[] }
  /** `failed`: the summary request failed or its reply is not a summary (not a hook's choice, nor an interruption). */
  | { ok: false; reason: string; failed?: boolean };

/**
 * Replaces `messages` (in place) with a summary of them. A trailing user prompt that has not been
 * answered yet is kept out of the summary and follows it, so it is still the question at hand.
 */
export async function compactConversation(
  messages: ApiMessage[],
  opts: AgentOptions,
  how: { trigger: CompactTrigger; instructions?: string; preTokens: number; shrink?: boolean; emit?: (e: AgentEvent) => void },
): Promise<CompactOutcome> {
  const held = pendingPrompt(messages);
  const whole = held ? messages.slice(0, -1) : [...messages];
  const history = how.shrink ? shrunk(whole) : whole;
  if (!history.length) return { ok: false, reason: 'there is nothing to compact yet' };
  const hook = await opts.hooks
    .preCompact?.({ trigger: how.trigger, ...(how.instructions ? { customInstructions: how.instructions } : {}) }, opts.signal)
    .catch(() => undefined);
  if (hook?.block) return { ok: false, reason: `a PreCompact hook blocked it: ${hook.block}` };
  let summary: string;
  try {
    const reply = summaryOf(await summarise(history, opts, how));
    if (!reply.ok) return { ok: false, reason: reply.reason, failed: true };
    summary = reply.text;
  } catch (err) {
    return opts.signal.aborted ? { ok: false, reason: 'it was interrupted' } : { ok: false, reason: errorMessage(err), failed: true };
  }
  const next: ApiMessage[] = [{ role: 'user', content: [{ type: 'text', text: `${CONTINUATION_PREFIX}\n\n${summary.trim()}` }] }];
  if (held) appendUser(next, typeof held.content === 'string' ? held.content : held.content);
  messages.splice(0, messages.length, ...next);
  await instructionsAfterCompaction(opts);
  await opts.hooks.postCompact?.({ trigger: how.trigger, summary: summary.trim() }, opts.signal).catch(() => undefined);
  return { ok: true, summary: summary.trim(), preTokens: how.preTokens, messages: next };
}

/** The last message when it is a user prompt the model has not answered (not tool results). */
function pendingPrompt(messages: ApiMessage[]): ApiMessage | undefined {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user' || messages.length < 2) return undefined;
  if (typeof last.content !== 'string' && last.content.some((b) => b.type === 'tool_result')) return undefined;
  return last;
}

/**
 * The summary in the model's reply, or why the reply is not one: a tool call (which nothing would
 * answer), a reply cut off at the output limit or refused, or no text at all.
 */
function summaryOf(final: FinalMessage): { ok: true; text: string } | { ok: false; reason: string } {
  if (final.content.some((b) => b.type === 'tool_use'))
    return { ok: false, reason: 'the model answered the request for a summary with a tool call instead of a summary' };
  if (final.stopReason === 'max_tokens') return { ok: false, reason: 'the summary was cut off at the output limit' };
  if (final.stopReason === 'refusal') return { ok: false, reason: 'the model declined to write the summary' };
  const text = final.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
  return text ? { ok: true, text } : { ok: false, reason: 'the model returned an empty summary' };
}

async function summarise(history: ApiMessage[], opts: AgentOptions, how: { instructions?: string; emit?: (e: AgentEvent) => void }): Promise<FinalMessage> {
  const request = [...history];
  appendUser(request, summaryPrompt(how.instructions));
  const started = monotonicMs();
  // The conversation holds tool_use blocks, which the API accepts only with tools defined; the same
  // tools as the session's requests keep their cache.
  const parts = requestParts(request, opts);
  const stream = opts.client.stream(
    {
      model: opts.model,
      system: opts.system.map((b, i) => (i === opts.system.length - 1 ? { ...b, cache_control: { type: 'ephemeral' as const } } : b)),
      messages: parts.messages,
      tools: parts.tools,
      betas: parts.betas,
      maxTokens: SUMMARY_OUTPUT_TOKENS,
      // The conversation may hold thinking blocks: the request keeps the session's thinking setting.
      thinkingBudget: opts.thinkingBudget,
      effort: effortFor(opts),
    },
    opts.signal,
  );
  for (;;) {
    const step = await stream.next();
    if (step.done) {
      const final = step.value;
      how.emit?.(usageEvent(opts.model, final.usage, started));
      return final;
    }
    if (step.value.type === 'retry') how.emit?.(step.value);
    else if (step.value.type === 'notice') how.emit?.({ type: 'warning', message: step.value.text });
  }
}

function summaryPrompt(instructions: string | undefined): string {
  return [
    'The conversation above is about to be replaced by a summary of it, which is all you will have to go on',
    'from here. Write that summary now. Do not call any tool: answer with text only.',
    '',
    'Cover, each under its own heading:',
    "1. What the user asked for: every request, in the user's own words where the wording matters.",
    '2. Technical facts and decisions that the rest of the work depends on.',
    '3. Files read, changed or created, and what in them matters (short excerpts of code where needed).',
    '4. Errors met and how they were resolved, and anything the user corrected.',
    '5. What is done, and what is still to do.',
    "6. The work in progress right now, and the next step if one follows directly from the user's latest request.",
    ...(instructions?.trim() ? ['', `The user asks that the summary also follow this: ${instructions.trim()}`] : []),
  ].join('\n');
}

/** At most this many automatic compactions in one run: an output that refills the context each time must not loop. */
const MAX_AUTO_PER_RUN = 3;

/**
 * Before a request: compacts when the last request's context passed the threshold. Yields the
 * events of the summary request and a `compact` event (or a warning when it could not be done).
 * Returns the error that ends the run: a failed compaction when `opts.strictCompaction` is set.
 */
export async function* autoCompact(
  messages: ApiMessage[],
  opts: AgentOptions,
  run: { autoCompactions: number },
): AsyncGenerator<AgentEvent, string | undefined> {
  const threshold = autoCompactThreshold(opts.env, opts.settings, opts.model);
  const tokens = opts.state.contextTokens;
  if (threshold === undefined || tokens === undefined || tokens < threshold || run.autoCompactions >= MAX_AUTO_PER_RUN) return;
  run.autoCompactions++;
  const events: AgentEvent[] = [];
  const out = await compactConversation(messages, opts, { trigger: 'auto', preTokens: tokens, emit: (e) => events.push(e) });
  yield* events;
  if (!out.ok && out.failed && opts.strictCompaction) return `the conversation could not be compacted: ${out.reason}`;
  if (!out.ok) {
    yield { type: 'warning', message: `The conversation was not compacted: ${out.reason}.` };
    return undefined;
  }
  opts.state.contextTokens = undefined;
  yield { type: 'compact', trigger: 'auto', preTokens: out.preTokens, summary: out.summary, messages: out.messages };
  const start = await opts.hooks.sessionStart?.({ source: 'compact', model: opts.model }, opts.signal).catch(() => undefined);
  if (start?.additionalContext) appendUser(messages, start.additionalContext);
  return undefined;
}

/** The API's answer to a request longer than the model's context (a 400, or a 413 for its size). */
export function isContextOverflow(err: unknown): boolean {
  if (!(err instanceof FatalError) || err.code !== 'bad_request') return false;
  return err.status === 413 || /prompt is too long|too many (?:input )?tokens|context (?:length|window)|maximum context/i.test(err.message);
}

/**
 * After a request was refused as too long: compacts, with long tool results cut in the summary
 * request so that it fits. True when the conversation is now the summary (the turn is retried);
 * otherwise why it could not be compacted.
 */
export async function* compactAfterOverflow(messages: ApiMessage[], opts: AgentOptions): AsyncGenerator<AgentEvent, true | string> {
  const events: AgentEvent[] = [];
  const out = await compactConversation(messages, opts, {
    trigger: 'auto',
    preTokens: opts.state.contextTokens ?? 0,
    shrink: true,
    emit: (e) => events.push(e),
  });
  yield* events;
  if (!out.ok) return out.reason;
  opts.state.contextTokens = undefined;
  yield { type: 'compact', trigger: 'auto', preTokens: out.preTokens, summary: out.summary, messages: out.messages };
  return true;
}

/** Tool results cut to their start, and images left out: the summary request must fit the context. */
function shrunk(history: ApiMessage[]): ApiMessage[] {
  const KEEP = 2000;
  return history.map((m) => {
    if (typeof m.content === 'string') return m.content.length > KEEP * 4 ? { ...m, content: cut(m.content, KEEP * 4) } : m;
    return {
      ...m,
      content: m.content.map((b) => {
        if (b.type === 'image') return { type: 'text' as const, text: '[an image, left out to fit the context]' };
        if (b.type !== 'tool_result') return b;
        const text =
          typeof b.content === 'string'
            ? b.content
            : b.content.map((c) => (c.type === 'text' ? c.text : c.type === 'image' ? '[image]' : `[loaded ${c.tool_name}]`)).join('\n');
        return { ...b, content: cut(text, KEEP) };
      }),
    };
  });
}

function cut(text: string, keep: number): string {
  return text.length > keep ? `${text.slice(0, keep)}\n[… ${text.length - keep} more characters left out to fit the context]` : text;
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

function positive(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
