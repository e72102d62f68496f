/**
 * One turn of the loop (agent-loop.ts): one request to the model, its reply streamed out as events,
 * its tool calls handed to the scheduler as each completes (while the model still streams), then one
 * user message with every tool_result, in the model's order, once they have all finished.
 */
import type { FinalMessage } from '../api/model-client.js';
import { costOf } from '../base/usage.js';
import type { ToolCall } from '../base/tool.js';
import type { StopFailureType } from '../hooks/types.js';
import type { AgentOptions } from './agent-options.js';
import type { Channel } from '../base/channel.js';
import { contextTokens, isContextOverflow } from './compact.js';
import { monotonicMs } from '../base/clock.js';
import { effortFor } from '../base/models.js';
import { appendUser, collectUrls, textOf } from '../base/conversation.js';
import { requestParts } from './model-request.js';
import { errorMessage, FatalError } from '../base/errors.js';
import type { AgentEvent, ApiMessage, ContentBlock, DeferredToolUse } from '../base/events.js';
import type { RunnerEnv } from './tool-runner.js';
import { ToolScheduler } from './tool-scheduler.js';
import { readOnly } from './gates/execute.js';
import { warmUpWhileWaiting } from './warm-up.js';
import { batchHook, cwdHook, failureType, hookEvents } from './loop-hooks.js';
import { instructionsAfterCalls } from './instruction-touches.js';

export type TurnResult =
  | { kind: 'final'; text: string }
  | { kind: 'tools'; text: string }
  | { kind: 'aborted'; text: string }
  | { kind: 'stopped'; text: string; reason: string }
  | { kind: 'deferred'; text: string; call: DeferredToolUse }
  | { kind: 'error'; text: string; message: string; overflow?: boolean; errorType?: StopFailureType };

/** What came of streaming the reply: its text so far, the calls it made, and the whole message or the failure that cut it. */
interface Reply {
  text: string;
  calls: ToolCall[];
  final?: FinalMessage;
  failure?: unknown;
  apiMs: number;
}

type Emit = (e: AgentEvent) => void;
type ToolResults = { stop?: string; deferred?: DeferredToolUse };

/** One request and its tool calls. Pushes events into `out`; `envFor` makes the gate runner's session for them. */
export async function runTurn(messages: ApiMessage[], opts: AgentOptions, out: Channel<AgentEvent>, envFor: (emit: Emit) => RunnerEnv): Promise<TurnResult> {
  const emit = (e: AgentEvent) => out.push(e);
  const parts = requestParts(messages, opts);
  const env: RunnerEnv = { ...envFor(emit), notLoaded: parts.notLoaded };
  // A PreToolUse `defer` parks a call only when it is its message's only one, known once the stream ends.
  let markSolo: (solo: boolean) => void = () => {};
  const solo = new Promise<boolean>((resolve) => (markSolo = resolve));
  if (opts.allowDefer) env.canDefer = () => solo;
  const scheduler = new ToolScheduler(env, opts.signal, opts.maxToolConcurrency ?? 10);
  const cwdAtStart = opts.state.cwd;
  const reply = await streamReply(parts, opts, scheduler, emit);
  markSolo(reply.final !== undefined && reply.calls.length === 1);
  recordReply(messages, opts, reply, emit);
  const toolText = reply.calls.length ? await collectResults(messages, scheduler, opts, emit) : undefined;
  if (opts.state.cwd !== cwdAtStart) await cwdHook(opts, cwdAtStart);
  return turnResult(messages, opts, reply, toolText, emit);
}

/** Sends the request and streams the reply: events out, each complete tool call to the scheduler. */
async function streamReply(parts: ReturnType<typeof requestParts>, opts: AgentOptions, scheduler: ToolScheduler, emit: Emit): Promise<Reply> {
  const reply: Reply = { text: '', calls: [], apiMs: 0 };
  const started = monotonicMs();
  // While the model thinks, tools may prepare their first call (warm-up.ts).
  let stopWarmUp = () => {};
  try {
    const stream = opts.client.stream(
      {
        model: opts.model,
        system: withSystemCache(opts),
        messages: parts.messages,
        tools: parts.tools,
        maxTokens: opts.maxTokens ?? 32_000,
        thinkingBudget: opts.thinkingBudget,
        effort: effortFor(opts),
        ...(opts.fallbackModels?.length ? { fallbackModels: opts.fallbackModels } : {}),
        betas: parts.betas,
      },
      opts.signal,
    );
    stopWarmUp = warmUpWhileWaiting(opts.tools);
    for (;;) {
      const step = await stream.next();
      // The model has started answering (message_start and pings come before its first word).
      if (step.done || !['raw', 'retry', 'fallback', 'notice'].includes(step.value.type)) stopWarmUp();
      if (step.done) {
        reply.final = step.value;
        break;
      }
      const ev = step.value;
      if (ev.type === 'raw') {
        emit({ type: 'stream_event', event: ev.event });
        changeComing(ev.event, opts);
      } else if (ev.type === 'text') {
        reply.text = ev.restart ? ev.text : reply.text + ev.text;
        emit({ type: 'assistant_delta', text: ev.text, ...(ev.restart ? { restart: true } : {}) });
      } else if (ev.type === 'thinking') emit({ type: 'thinking_delta', text: ev.text });
      else if (ev.type === 'retry') emit(ev);
      else if (ev.type === 'notice') emit({ type: 'warning', message: ev.text });
      else if (ev.type === 'fallback') {
        // The rest of the session stays on the fallback model, as its cost does.
        opts.model = ev.model;
        emit({ type: 'warning', message: `${ev.from} is overloaded (${ev.error}); switched to the fallback model ${ev.model}` });
      } else if (ev.type === 'tool_use') {
        const { id, name, input, inputError } = ev.toolUse;
        const call: ToolCall = { id, name, input, ...(inputError ? { inputError } : {}) };
        reply.calls.push(call);
        scheduler.add(call);
      }
    }
  } catch (err) {
    reply.failure = err;
  }
  stopWarmUp();
  reply.apiMs = Math.round(monotonicMs() - started);
  return reply;
}

/**
 * A tool_use block starts whose tool may change files (Bash, Edit, Write, NotebookEdit, an MCP tool
 * not marked read-only; judged without its input, which is still to come): the prompt's snapshot
 * starts now (core/snapshots/), while the model streams the input, and the call awaits it once its
 * gates let it run. A reply of text alone, or of read-only tools, starts nothing.
 */
function changeComing(event: unknown, opts: AgentOptions): void {
  if (!opts.snapshots) return;
  const e = event as { type?: unknown; content_block?: { type?: unknown; name?: unknown } };
  if (e?.type !== 'content_block_start' || e.content_block?.type !== 'tool_use') return;
  const tool = opts.tools.find((t) => t.name === e.content_block?.name);
  if (tool && !readOnly(tool, {})) opts.snapshots.start();
}

/** The reply joins the conversation: whole, with its usage; or, cut short, what of it is complete. */
function recordReply(messages: ApiMessage[], opts: AgentOptions, reply: Reply, emit: Emit): void {
  const { final } = reply;
  if (final) {
    messages.push({ role: 'assistant', content: final.content.length ? final.content : [{ type: 'text', text: '(no content)' }] });
    emit({
      type: 'assistant_message',
      message: { role: 'assistant', content: final.content, id: final.id, model: final.model || opts.model, stop_reason: final.stopReason, usage: final.usage },
    });
    emit({ type: 'usage', usage: final.usage, costUsd: costOf(opts.model, final.usage), model: opts.model, apiDurationMs: reply.apiMs });
    opts.state.contextTokens = contextTokens(final.usage);
    emit({ type: 'turn_end', stopReason: final.stopReason });
    return;
  }
  // Aborted or failed mid-stream: keep what is complete so the conversation stays valid.
  const content: ContentBlock[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const c of reply.calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? {} });
  if (content.length) messages.push({ role: 'assistant', content });
}

/** How the turn ended: a failed request, a stop or deferral asked for by a call, an abort, or the model done or waiting for its tools. */
function turnResult(messages: ApiMessage[], opts: AgentOptions, reply: Reply, toolText: ToolResults | undefined, emit: Emit): TurnResult {
  const { text, calls, final, failure } = reply;
  if (failure !== undefined && !final) {
    if (opts.signal.aborted) {
      if (!calls.length) appendUser(messages, '[Request interrupted by the user]');
      return { kind: 'aborted', text };
    }
    const message = failure instanceof FatalError ? failure.message : `unexpected error: ${errorMessage(failure)}`;
    // A request too long for the model's context, with no reply at all: the loop may compact and retry.
    if (!calls.length && !text && isContextOverflow(failure)) return { kind: 'error', text, message, overflow: true };
    const api = failure instanceof FatalError && failure.status !== undefined && failure.api ? { status: failure.status, ...failure.api } : undefined;
    emit({ type: 'error', message, ...(api ? { api } : {}) });
    if (!calls.length && messages[messages.length - 1]?.role === 'assistant') appendUser(messages, '[The previous response failed]');
    return { kind: 'error', text, message, errorType: failureType(failure) };
  }
  if (toolText?.deferred) return { kind: 'deferred', text, call: toolText.deferred };
  if (toolText?.stop) return { kind: 'stopped', text, reason: toolText.stop };
  if (opts.signal.aborted) return { kind: 'aborted', text };
  return calls.length ? { kind: 'tools', text } : { kind: 'final', text };
}

/** Waits for every call, appends the tool_result message (in call order), and notes stop requests. */
export async function collectResults(messages: ApiMessage[], scheduler: ToolScheduler, opts: AgentOptions, emit: Emit): Promise<ToolResults> {
  const results = await scheduler.finish();
  // A deferred call stays unanswered: the session ends here, and resuming it runs the call.
  const parked = results.find((r) => r.outcome.deferred);
  if (parked) return { deferred: { id: parked.call.id, name: parked.call.name, input: parked.call.input } };
  const blocks: ContentBlock[] = results.map(({ call, outcome }) => {
    collectUrls(textOf(outcome.result.content), opts.seenUrls);
    return {
      type: 'tool_result',
      tool_use_id: call.id,
      content: outcome.result.content,
      ...(outcome.result.isError ? { is_error: true } : {}),
    };
  });
  if (opts.signal.aborted) blocks.push({ type: 'text', text: '[Request interrupted by the user]' });
  else blocks.push(...(await instructionsAfterCalls(results, opts)));
  const batch = opts.signal.aborted ? {} : await batchHook(results, opts);
  if (batch.additionalContext) blocks.push({ type: 'text', text: `PostToolBatch hook context: ${batch.additionalContext}` });
  const message: ApiMessage = { role: 'user', content: blocks };
  messages.push(message);
  emit({ type: 'tool_results_message', message });
  for (const ev of hookEvents(opts.hooks)) emit(ev);
  const stop = results.find((r) => r.outcome.stop)?.outcome.stop ?? batch.stop;
  return stop ? { stop } : {};
}

function withSystemCache(opts: AgentOptions) {
  const sys = opts.system.map((b) => ({ ...b }));
  const last = sys[sys.length - 1];
  if (last) last.cache_control = { type: 'ephemeral' };
  return sys;
}
