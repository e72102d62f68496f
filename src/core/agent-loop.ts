/**
 * The master loop (PRODUCT.md §6): stream one assistant message → hand its tool calls to the
 * scheduler as they complete → append exactly one tool_result per tool_use → repeat until the model
 * stops asking for tools, --max-turns is reached, the run is aborted, or a fatal error ends it.
 * Yields AgentEvents; never prints, never exits. The caller's `messages` array is the conversation
 * and is left valid for the next prompt in every case.
 */
import { searchWeb } from './web-search.js';
import { askOnce } from '../api/ask-once.js';
import type { FinalMessage } from '../api/model-client.js';
import { costOf } from '../base/usage.js';
import { findTool } from '../tools/registry.js';
import type { AskUser } from '../base/permission-types.js';
import type { ParsedRule } from '../base/rule-parse.js';
import type { CallOutcome, Tool, ToolCall, ToolContext } from '../base/tool.js';
import type { StopFailureType } from '../hooks/types.js';
import type { AgentOptions } from './agent-options.js';
import { Channel } from '../base/channel.js';
import { autoCompact, compactAfterOverflow, contextTokens, isContextOverflow } from './compact.js';
import { monotonicMs } from '../base/clock.js';
import { effortFor } from '../base/models.js';
import { appendUser, collectUrls, textOf, unansweredToolUses } from '../base/conversation.js';
import { requestParts } from './model-request.js';
import { errorMessage, FatalError } from '../base/errors.js';
import type { AgentEvent, ApiMessage, ContentBlock, DeferredToolUse } from '../base/events.js';
import { executeCall, prepareCall, type RunnerEnv } from './tool-runner.js';
import { connectAgentServers } from '../mcp/agent-servers.js';
import { ToolScheduler } from './tool-scheduler.js';
import { runSubagent } from './subagent.js';
import { noticeText, trackerFor } from './task-notices.js';
import { warmUpWhileWaiting } from './warm-up.js';
import { batchHook, cwdHook, failureType, hookEvents, stopHook } from './loop-hooks.js';
import { instructionsAfterCalls, rememberGiven } from './instruction-touches.js';

const MAX_STOP_HOOK_BLOCKS = 8;

export async function* runAgent(messages: ApiMessage[], opts: AgentOptions): AsyncGenerator<AgentEvent, void> {
  let turns = 0;
  let toolRounds = 0;
  let stopBlocks = 0;
  let finalText = '';
  const run = { autoCompactions: 0, overflowCompacted: false };
  for (const m of messages) if (m.role === 'user') collectUrls(textOf(m.content), opts.seenUrls);
  rememberGiven(messages, opts);
  for (;;) {
    if (opts.signal.aborted) return yield done('aborted', turns, finalText);
    const compactFailure = yield* autoCompact(messages, opts, run);
    if (opts.signal.aborted) return yield done('aborted', turns, finalText);
    if (compactFailure) return yield* failRun(opts, compactFailure, turns, finalText);
    yield* deliverNotices(messages, opts);
    turns++;
    yield { type: 'turn_start', turn: turns };
    const channel = new Channel<AgentEvent>();
    const turn = runTurn(messages, opts, channel).finally(() => channel.close());
    for await (const ev of channel) yield ev;
    const r = await turn;
    if (r.kind === 'error' && r.overflow && !run.overflowCompacted) {
      run.overflowCompacted = true;
      const compacted = yield* compactAfterOverflow(messages, opts);
      if (compacted === true) continue;
      if (!opts.signal.aborted) r.message = `${r.message} (the conversation could not be compacted: ${compacted})`;
    }
    if (r.kind === 'error' && r.overflow) yield { type: 'error', message: r.message };
    if (r.kind === 'error') {
      await opts.hooks
        .stopFailure?.({
          error: r.errorType ?? 'unknown',
          errorDetails: r.message,
          ...(r.text || finalText ? { lastAssistantMessage: r.text || finalText } : {}),
        })
        .catch(() => undefined);
      return yield done('error', turns, finalText, r.message);
    }
    if (r.text) finalText = r.text;
    if (r.kind === 'aborted') return yield done('aborted', turns, finalText);
    if (r.kind === 'stopped') return yield done('hook_stopped', turns, finalText, r.reason);
    if (r.kind === 'deferred') return yield { ...done('tool_deferred', turns, finalText), deferredToolUse: r.call };
    if (r.kind === 'tools') {
      toolRounds++;
      if (opts.maxTurns !== undefined && toolRounds >= opts.maxTurns) return yield done('max_turns', turns, finalText);
      continue;
    }
    // The model is done; a Stop hook may send it back to work.
    const block = await stopHook(opts, r.text, stopBlocks > 0);
    yield* hookEvents(opts.hooks);
    if (block && stopBlocks < MAX_STOP_HOOK_BLOCKS) {
      stopBlocks++;
      appendUser(messages, `Stop hook feedback: ${block}`);
      continue;
    }
    // Background work that ended, or (print mode) is still running, gives the model more to do.
    if (yield* awaitBackground(messages, opts)) continue;
    if (opts.signal.aborted) return yield done('aborted', turns, finalText);
    return yield done('completed', turns, finalText);
  }
}

type DoneEvent = Extract<AgentEvent, { type: 'done' }>;

/** Ends the run on an error that came before any request of the turn (a failed compaction). */
async function* failRun(opts: AgentOptions, message: string, turns: number, finalText: string): AsyncGenerator<AgentEvent, void> {
  yield { type: 'error', message };
  await opts.hooks.stopFailure?.({ error: 'unknown', errorDetails: message, ...(finalText ? { lastAssistantMessage: finalText } : {}) }).catch(() => undefined);
  yield done('error', turns, finalText, message);
}

/**
 * Notices of background tasks that ended go into the conversation as user text (after the tool
 * results of the same message), with an event each. True when any went in.
 */
async function* deliverNotices(messages: ApiMessage[], opts: AgentOptions): AsyncGenerator<AgentEvent, boolean> {
  let added = false;
  for (const progress of opts.taskNotices?.takeProgress() ?? []) yield { type: 'task_progress', progress };
  for (const notice of opts.taskNotices?.take() ?? []) {
    yield* notice.events ?? [];
    if (notice.silent) {
      yield { type: 'task_notification', notice };
      continue;
    }
    const text = noticeText(notice);
    appendUser(messages, text);
    added = true;
    yield { type: 'task_notification', notice, text };
  }
  return added;
}

/**
 * The model is done: notices that arrived meanwhile send it back to work; with `waitForBackground`,
 * so does the next one of a task still running (a task's own deadline bounds the wait). True when
 * the model has something new to read.
 */
async function* awaitBackground(messages: ApiMessage[], opts: AgentOptions): AsyncGenerator<AgentEvent, boolean> {
  const notices = opts.taskNotices;
  if (!notices) return false;
  for (;;) {
    if (yield* deliverNotices(messages, opts)) return true;
    if (!opts.waitForBackground || !notices.runningTasks().length || opts.signal.aborted) return false;
    await notices.waitForNotice(opts.signal, true); // a running agent's progress is passed on meanwhile
  }
}

/**
 * A session resumed after a PreToolUse hook deferred a call: the call goes through every gate now
 * (its hooks fire again) and its result joins the conversation, before anything else is sent. A
 * done event when the run ends here (deferred again, its tool gone, stopped or aborted).
 */
export async function* answerPendingCalls(messages: ApiMessage[], opts: AgentOptions): AsyncGenerator<AgentEvent, DoneEvent | undefined> {
  const last = messages[messages.length - 1];
  const open = new Set(unansweredToolUses(messages));
  if (last?.role !== 'assistant' || !open.size || typeof last.content === 'string') return undefined;
  const calls = last.content.flatMap((b) => (b.type === 'tool_use' && open.has(b.id) ? [{ id: b.id, name: b.name, input: b.input }] : []));
  const gone = calls.find((c) => !findTool(opts.tools, c.name));
  if (gone) return { ...done('tool_deferred_unavailable', 0, '', `the deferred tool ${gone.name} is not available in this session`), deferredToolUse: gone };
  const channel = new Channel<AgentEvent>();
  const emit = (e: AgentEvent) => channel.push(e);
  const env = runnerEnv(opts, emit);
  if (opts.allowDefer) env.canDefer = async () => calls.length === 1;
  const scheduler = new ToolScheduler(env, opts.signal, opts.maxToolConcurrency ?? 10);
  for (const c of calls) scheduler.add(c);
  const work = collectResults(messages, scheduler, opts, emit).finally(() => channel.close());
  for await (const ev of channel) yield ev;
  const r = await work;
  if (r.deferred) return { ...done('tool_deferred', 0, ''), deferredToolUse: r.deferred };
  if (r.stop) return done('hook_stopped', 0, '', r.stop);
  return opts.signal.aborted ? done('aborted', 0, '') : undefined;
}

function done(reason: DoneEvent['reason'], numTurns: number, finalText: string, error?: string): DoneEvent {
  return { type: 'done', reason, numTurns, finalText, ...(error ? { error } : {}) };
}

type TurnResult =
  | { kind: 'final'; text: string }
  | { kind: 'tools'; text: string }
  | { kind: 'aborted'; text: string }
  | { kind: 'stopped'; text: string; reason: string }
  | { kind: 'deferred'; text: string; call: DeferredToolUse }
  | { kind: 'error'; text: string; message: string; overflow?: boolean; errorType?: StopFailureType };

/** One request and its tool calls. Pushes events into `out`. */
async function runTurn(messages: ApiMessage[], opts: AgentOptions, out: Channel<AgentEvent>): Promise<TurnResult> {
  const emit = (e: AgentEvent) => out.push(e);
  const parts = requestParts(messages, opts);
  const env: RunnerEnv = { ...runnerEnv(opts, emit), notLoaded: parts.notLoaded };
  // A PreToolUse `defer` parks a call only when it is its message's only one, known once the stream ends.
  let markSolo: (solo: boolean) => void = () => {};
  const solo = new Promise<boolean>((resolve) => (markSolo = resolve));
  if (opts.allowDefer) env.canDefer = () => solo;
  const scheduler = new ToolScheduler(env, opts.signal, opts.maxToolConcurrency ?? 10);
  const calls: ToolCall[] = [];
  const cwdAtStart = opts.state.cwd;
  let text = '';
  const started = monotonicMs();
  let final: FinalMessage | undefined;
  let failure: unknown;
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
        final = step.value;
        break;
      }
      const ev = step.value;
      if (ev.type === 'raw') emit({ type: 'stream_event', event: ev.event });
      else if (ev.type === 'text') {
        text = ev.restart ? ev.text : text + ev.text;
        emit({ type: 'assistant_delta', text: ev.text, ...(ev.restart ? { restart: true } : {}) });
      } else if (ev.type === 'thinking') emit({ type: 'thinking_delta', text: ev.text });
      else if (ev.type === 'retry') emit(ev);
      else if (ev.type === 'notice') emit({ type: 'warning', message: ev.text });
      else if (ev.type === 'fallback') {
        // The rest of the session stays on the fallback model, as its cost does.
        opts.model = ev.model;
        emit({ type: 'warning', message: `${ev.from} is overloaded (${ev.error}); switched to the fallback model ${ev.model}` });
      } else if (ev.type === 'tool_use') {
        const call: ToolCall = {
          id: ev.toolUse.id,
          name: ev.toolUse.name,
          input: ev.toolUse.input,
          ...(ev.toolUse.inputError ? { inputError: ev.toolUse.inputError } : {}),
        };
        calls.push(call);
        scheduler.add(call);
      }
    }
  } catch (err) {
    failure = err;
  }
  stopWarmUp();
  markSolo(final !== undefined && calls.length === 1);
  const apiMs = Math.round(monotonicMs() - started);
  if (final) {
    messages.push({ role: 'assistant', content: final.content.length ? final.content : [{ type: 'text', text: '(no content)' }] });
    emit({
      type: 'assistant_message',
      message: { role: 'assistant', content: final.content, id: final.id, model: final.model || opts.model, stop_reason: final.stopReason, usage: final.usage },
    });
    emit({ type: 'usage', usage: final.usage, costUsd: costOf(opts.model, final.usage), model: opts.model, apiDurationMs: apiMs });
    opts.state.contextTokens = contextTokens(final.usage);
    emit({ type: 'turn_end', stopReason: final.stopReason });
  } else {
    // Aborted or failed mid-stream: keep what is complete so the conversation stays valid.
    const content: ContentBlock[] = [];
    if (text) content.push({ type: 'text', text });
    for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? {} });
    if (content.length) messages.push({ role: 'assistant', content });
  }
  const toolText = calls.length ? await collectResults(messages, scheduler, opts, emit) : undefined;
  if (opts.state.cwd !== cwdAtStart) await cwdHook(opts, cwdAtStart);
  if (failure !== undefined && !final) {
    if (opts.signal.aborted) {
      if (!calls.length) appendUser(messages, '[Request interrupted by the user]');
      return { kind: 'aborted', text };
    }
    const message = failure instanceof FatalError ? failure.message : `unexpected error: ${errorMessage(failure)}`;
    // A request too long for the model's context, with no reply at all: the loop may compact and retry.
    if (!final && !calls.length && !text && isContextOverflow(failure)) return { kind: 'error', text, message, overflow: true };
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
async function collectResults(
  messages: ApiMessage[],
  scheduler: ToolScheduler,
  opts: AgentOptions,
  emit: (e: AgentEvent) => void,
): Promise<{ stop?: string; deferred?: DeferredToolUse }> {
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

/**
 * One call through every gate outside a model turn (a file the person @-mentions, a custom
 * command's inline shell), with the tools and the answer to "ask" the caller chooses. `allow` adds
 * rules for this call only. Its context change is applied at once, unless `keepContext` (an inline
 * `cd` does not move the session).
 */
export async function runCallOutsideTurn(
  opts: AgentOptions,
  call: ToolCall,
  over: { tools: readonly Tool[]; askUser: AskUser; emit?: (e: AgentEvent) => void; allow?: readonly ParsedRule[]; keepContext?: boolean },
): Promise<CallOutcome> {
  const rules = over.allow?.length ? { ...opts.permission.rules, allow: [...over.allow, ...opts.permission.rules.allow] } : opts.permission.rules;
  const base = runnerEnv(opts, over.emit ?? (() => {}));
  const env: RunnerEnv = { ...base, tools: over.tools, askUser: over.askUser, permission: { ...base.permission, rules } };
  const prepared = prepareCall(call, env);
  const outcome = prepared.kind === 'done' ? prepared.outcome : await executeCall(prepared, env, opts.signal);
  if (!over.keepContext) outcome.contextChange?.(opts.state);
  return outcome;
}

function runnerEnv(opts: AgentOptions, emit: (e: AgentEvent) => void): RunnerEnv {
  const base: RunnerEnv['base'] = {
    projectRoot: opts.projectRoot,
    additionalDirs: opts.additionalDirs,
    homeDir: opts.homeDir,
    wicketHome: opts.wicketHome,
    sessionId: opts.sessionId,
    env: opts.env,
    settings: opts.settings,
    seenUrls: opts.seenUrls,
    ...(opts.fileHistory ? { fileHistory: opts.fileHistory } : {}),
    querySmallModel: (prompt, o) => querySmallModel(opts, prompt, o, emit),
    ...(opts.webSearch === false ? {} : { searchWeb: (q, signal) => searchWeb(opts, q, signal, emit) }),
    runGatedCall: (call, o) =>
      runCallOutsideTurn({ ...opts, askUser: o.askUser }, call, { tools: opts.tools, askUser: o.askUser, allow: o.allow, keepContext: true }),
    // The sub-agent's cost, denials and problems count as the session's (a background one's come with its notice).
    runSubagent: (spec, signal, onEvent, o) =>
      runSubagent(
        opts,
        spec,
        signal,
        (ev) => {
          if (!o?.background && (ev.type === 'usage' || ev.type === 'retry' || ev.type === 'warning' || ev.type === 'permission_denied')) emit(ev);
          onEvent(ev);
        },
        runAgent,
      ),
    connectAgentServers,
    ...(opts.taskNotices ? { backgroundTasks: trackerFor(opts.taskNotices, emit) } : {}),
    ...(opts.hooks.worktreeCreate ? { worktreeHooks: opts.hooks } : {}),
  } satisfies Omit<ToolContext, 'cwd' | 'readState' | 'signal' | 'toolUseId' | 'permissionMode'>;
  const effects = opts.permissionEffects ? { permissionEffects: opts.permissionEffects } : {};
  return { tools: opts.tools, state: opts.state, permission: opts.permission, hooks: opts.hooks, askUser: opts.askUser, ...effects, base, emit };
}

/** One-shot question to the small model through the same client (retries, usage and cost counted). */
async function querySmallModel(
  opts: AgentOptions,
  prompt: string,
  o: { signal: AbortSignal; system?: string },
  emit: (e: AgentEvent) => void,
): Promise<string> {
  const started = monotonicMs();
  const { text, final } = await askOnce(opts.client, { model: opts.smallModel, prompt, ...(o.system ? { system: o.system } : {}) }, o.signal);
  emit({
    type: 'usage',
    usage: final.usage,
    costUsd: costOf(opts.smallModel, final.usage),
    model: opts.smallModel,
    apiDurationMs: Math.round(monotonicMs() - started),
  });
  return text;
}
