/**
 * The master loop (PRODUCT.md §6): stream one assistant message → hand its tool calls to the
 * scheduler as they complete → append exactly one tool_result per tool_use → repeat until the model
 * stops asking for tools, --max-turns is reached, the run is aborted, or a fatal error ends it.
 * Yields AgentEvents; never prints, never exits. The caller's `messages` array is the conversation
 * and is left valid for the next prompt in every case. One turn (a request and its calls) is
 * model-turn.ts; here are the run around it and the session the gate runner works for.
 */
import { searchWeb } from './web-search.js';
import { askOnce } from '../api/ask-once.js';
import { usageEvent } from './usage-event.js';
import { findTool } from '../tools/registry.js';
import type { AskUser } from '../base/permission-types.js';
import type { ParsedRule } from '../base/rule-parse.js';
import type { CallOutcome, Tool, ToolCall, ToolContext } from '../base/tool.js';
import type { AgentOptions } from './agent-options.js';
import { Channel } from '../base/channel.js';
import { autoCompact, compactAfterOverflow } from './compact.js';
import { monotonicMs } from '../base/clock.js';
import { appendUser, collectUrls, textOf, unansweredToolUses } from '../base/conversation.js';
import type { AgentEvent, ApiMessage } from '../base/events.js';
import { executeCall, prepareCall, type RunnerEnv } from './tool-runner.js';
import { connectAgentServers } from '../mcp/agent-servers.js';
import { ToolScheduler } from './tool-scheduler.js';
import { runSubagent } from './subagent.js';
import { noticeText, trackerFor } from './task-notices.js';
import { hookEvents, stopHook } from './loop-hooks.js';
import { rememberGiven } from './instruction-touches.js';
import { collectResults, runTurn } from './model-turn.js';

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
    const turn = runTurn(messages, opts, channel, (emit) => runnerEnv(opts, emit)).finally(() => channel.close());
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
    ...(opts.lsp ? { lsp: opts.lsp } : {}),
  } satisfies Omit<ToolContext, 'cwd' | 'readState' | 'signal' | 'toolUseId' | 'permissionMode'>;
  const snapshots = opts.snapshots;
  return {
    tools: opts.tools,
    state: opts.state,
    permission: opts.permission,
    hooks: opts.hooks,
    askUser: opts.askUser,
    ...(opts.permissionEffects ? { permissionEffects: opts.permissionEffects } : {}),
    base,
    emit,
    ...(snapshots
      ? {
          beforeHooks: () => snapshots.scanDone(),
          beforeChange: async (name: string, input: unknown) => {
            const failed = await snapshots.beforeChange(name, input, opts.state.cwd);
            if (failed)
              emit({
                type: 'warning',
                message: `no snapshot of the project could be taken before this prompt's changes, so a rewind cannot undo them: ${failed}`,
              });
          },
        }
      : {}),
  };
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
  emit(usageEvent(opts.smallModel, final.usage, started));
  return text;
}
