/**
 * Print mode: consumes core events and writes text, one JSON result, or a JSON event stream, with
 * Claude Code's field names. Returns the exit code; never exits by itself.
 */
import type { AgentOptions } from '../core/agent-options.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../base/events.js';
import type { PermissionAnswer, PermissionRequest } from '../base/permission-types.js';
import type { PluginSet } from '../plugins/types.js';
import { addUsage, emptyUsage } from '../base/usage.js';
import type { TranscriptWriter } from '../session/transcript.js';
import type { DebugLog } from '../core/setup/debug-log.js';
import { addToTotals, emptyTotals, runPrompt, type PromptWithContext, type Totals } from '../core/run-prompt.js';
import { randomUuid } from '../base/ids.js';
import { allowHint, PERSON_ONLY, PRINT_MODE, unaskedDenial } from '../permissions/denial-text.js';
import { duration } from '../api/limits.js';
import { denialNote } from './denial-note.js';
import type { CliOptions } from '../core/setup/options.js';

export interface PrintIO {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** Who answers in print mode, as the gate trace names it. */
export const PRINT_MODE_ANSWER = 'no one to ask in print mode';

/**
 * Print mode has no one to ask: the call is denied with the real reason (nobody said no), and what
 * would let it run: the suggested rule, or (when an allow rule cannot approve it) a person.
 */
export async function printModeAskUser(req: PermissionRequest): Promise<PermissionAnswer> {
  const what = req.ruleCanAllow === false ? PERSON_ONLY : allowHint(req.toolName, req.suggestions);
  const message = unaskedDenial(PRINT_MODE, what, req.reason);
  return { behavior: 'deny', message, answeredBy: PRINT_MODE_ANSWER, nobodyAsked: true };
}

interface RunState {
  totals: Totals;
  turns: number;
  denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
  /** The same denials as the core reported them (why, and what would allow them). */
  denialEvents: Array<Extract<AgentEvent, { type: 'permission_denied' }>>;
  startedAt: number;
  budgetHit: boolean;
}

export async function runPrintMode(
  opts: CliOptions,
  agent: AgentOptions,
  prompts: AsyncIterable<string | ContentBlock[] | PromptWithContext>,
  messages: ApiMessage[],
  io: PrintIO,
  abort: AbortController,
  session: { transcript?: TranscriptWriter; mcpServers?: McpServerStatus[]; plugins?: PluginSet; debug?: DebugLog } = {},
): Promise<number> {
  const { transcript } = session;
  const stream = opts.outputFormat === 'stream-json';
  if (stream) io.out(line(initMessage(agent, session.mcpServers ?? [], session.plugins)));
  const pendingTraces: PendingTraces = [];
  let code = 0;
  for await (const item of prompts) {
    const { prompt, context } = typeof item === 'object' && !Array.isArray(item) ? item : { prompt: item, context: undefined };
    if (stream && opts.replayUserMessages && opts.inputFormat === 'stream-json') {
      io.out(line({ type: 'user', message: { role: 'user', content: prompt }, session_id: agent.sessionId, uuid: randomUuid(), parent_tool_use_id: null }));
    }
    const st: RunState = { totals: emptyTotals(), turns: 0, denials: [], denialEvents: [], startedAt: Date.now(), budgetHit: false };
    let last: Extract<AgentEvent, { type: 'done' }> | undefined;
    const errors: string[] = [];
    agent.state.structuredOutput = undefined;
    // With --json-schema, a model that ends without calling StructuredOutput is asked again (twice at most).
    for (let current = prompt, nudges = 0; ; current = STRUCTURED_NUDGE, nudges++) {
      const first = nudges === 0;
      for await (const ev of runPrompt(messages, current, agent, {
        onUserMessage: (m) => transcript?.message(m),
        checkpoint: first,
        ...(first && context ? { context } : {}),
      })) {
        transcript?.onEvent(ev);
        session.debug?.event(ev);
        track(ev, st, opts, abort, errors);
        if (stream) emitStreamEvent(ev, opts, agent, io, pendingTraces);
        else if (ev.type === 'warning') io.err(`${ev.message}\n`);
        // A retry is always shown: a silent API can make each one wait for the idle limit.
        else if (ev.type === 'retry') io.err(`wicket: ${ev.error}; retrying in ${duration(ev.delayMs)} (${ev.attempt}/${ev.maxRetries})\n`);
        if (ev.type === 'done') last = ev;
      }
      if (!opts.jsonSchema || last?.reason !== 'completed' || agent.state.structuredOutput !== undefined || nudges >= 2) break;
    }
    const result = resultObject(last, st, agent, errors, opts.jsonSchema !== undefined);
    code = exitCodeFor(result, last, abort);
    if (opts.outputFormat === 'text') {
      if (result.is_error) io.err(`${(result.errors?.length ? result.errors : ['error']).map((e) => `wicket: ${e}`).join('\n')}\n`);
      if (typeof result.result === 'string' && result.result) io.out(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
      const note = denialNote(st.denialEvents);
      if (note) io.err(note);
    } else io.out(opts.outputFormat === 'json' ? `${JSON.stringify(result)}\n` : line(result));
    if (abort.signal.aborted) break;
  }
  return code;
}

function track(ev: AgentEvent, st: RunState, opts: CliOptions, abort: AbortController, errors: string[]): void {
  if (ev.type === 'usage') {
    addToTotals(st.totals, ev);
    if (opts.maxBudgetUsd !== undefined && st.totals.costUsd > opts.maxBudgetUsd && !st.budgetHit) {
      st.budgetHit = true;
      abort.abort(new Error('budget'));
    }
  } else if (ev.type === 'permission_denied') {
    st.denials.push({ tool_name: ev.name, tool_use_id: ev.toolUseId, tool_input: ev.input });
    st.denialEvents.push(ev);
  } else if (ev.type === 'error') errors.push(ev.message);
  else if (ev.type === 'turn_start') st.turns = ev.turn;
}

function exitCodeFor(result: ResultObject, done: Extract<AgentEvent, { type: 'done' }> | undefined, abort: AbortController): number {
  if (done?.reason === 'aborted' && abort.signal.reason === 'SIGINT') return 130;
  if (done?.reason === 'aborted' && abort.signal.reason === 'SIGTERM') return 143;
  return result.is_error ? 1 : 0;
}

type ResultObject = Record<string, unknown> & { is_error: boolean; result?: string; errors?: string[] };

const STRUCTURED_NUDGE = 'You have not called the StructuredOutput tool. Call it now with your final answer, in the shape its schema requires.';

function resultObject(
  done: Extract<AgentEvent, { type: 'done' }> | undefined,
  st: RunState,
  agent: AgentOptions,
  errors: string[],
  wantStructured = false,
): ResultObject {
  const structured = agent.state.structuredOutput;
  const missingStructured = wantStructured && done?.reason === 'completed' && structured === undefined;
  if (missingStructured) errors.push('the model did not return the structured output (--json-schema) after being asked twice');
  const subtype = st.budgetHit
    ? 'error_max_budget_usd'
    : missingStructured
      ? 'error_max_structured_output_retries'
      : done?.reason === 'completed' || done?.reason === 'tool_deferred'
        ? 'success'
        : done?.reason === 'max_turns'
          ? 'error_max_turns'
          : 'error_during_execution';
  const isError = subtype !== 'success';
  let usage = emptyUsage();
  const modelUsage: Record<string, unknown> = {};
  for (const [model, m] of st.totals.byModel) {
    if (model === agent.model) usage = addUsage(usage, m.usage);
    modelUsage[model] = {
      inputTokens: m.usage.input_tokens,
      outputTokens: m.usage.output_tokens,
      cacheReadInputTokens: m.usage.cache_read_input_tokens,
      cacheCreationInputTokens: m.usage.cache_creation_input_tokens,
      costUSD: m.costUsd,
    };
  }
  if (done?.reason === 'max_turns') errors.push(`reached the maximum number of turns (${agent.maxTurns})`);
  if (done?.reason === 'aborted') errors.push(st.budgetHit ? 'reached the budget set by --max-budget-usd' : 'interrupted');
  if (done?.reason === 'hook_stopped' && done.error) errors.push(`stopped by a hook: ${done.error}`);
  if (done?.reason === 'tool_deferred_unavailable' && done.error) errors.push(done.error);
  if (!done) errors.push('the run ended without a result');
  return {
    type: 'result',
    subtype,
    is_error: isError,
    duration_ms: Date.now() - st.startedAt,
    duration_api_ms: st.totals.apiMs,
    num_turns: done?.numTurns ?? st.turns,
    ...(isError ? { errors: [...new Set(errors)] } : { result: done?.finalText ?? '' }),
    stop_reason: done?.reason === 'completed' ? 'end_turn' : done?.deferredToolUse ? done.reason : null,
    terminal_reason: done?.reason === 'completed' ? 'completed' : (done?.reason ?? 'error'),
    ...(done?.deferredToolUse ? { deferred_tool_use: done.deferredToolUse } : {}),
    session_id: agent.sessionId,
    total_cost_usd: round(st.totals.costUsd),
    usage,
    modelUsage,
    permission_denials: st.denials,
    ...(structured !== undefined ? { structured_output: structured } : {}),
    uuid: randomUuid(),
  };
}

function round(n: number): number {
  return Math.round(n * 1e8) / 1e8;
}

function line(obj: unknown): string {
  return `${JSON.stringify(obj)}\n`;
}

/** A server as the init message lists it: Claude Code's statuses (connected, failed, pending, disabled…). */
export interface McpServerStatus {
  name: string;
  status: string;
}

function initMessage(agent: AgentOptions, mcpServers: McpServerStatus[], plugins: PluginSet | undefined) {
  return {
    type: 'system',
    subtype: 'init',
    uuid: randomUuid(),
    session_id: agent.sessionId,
    cwd: agent.state.cwd,
    model: agent.model,
    tools: agent.tools.map((t) => t.name),
    mcp_servers: mcpServers,
    permissionMode: agent.permission.mode,
    slash_commands: [],
    output_style: agent.outputStyle ?? 'default',
    plugins: (plugins?.plugins ?? []).map((p) => ({ name: p.name, path: p.root, ...(p.version ? { version: p.version } : {}) })),
    ...(plugins?.errors.length ? { plugin_errors: plugins.errors } : {}),
    apiKeySource: apiKeySource(agent),
    wicket_version: typeof agent.env.npm_package_version === 'string' ? agent.env.npm_package_version : undefined,
  };
}

/** Where the key comes from, as Claude Code names it; a cloud's own credentials are no API key ('none'). */
function apiKeySource(agent: AgentOptions): string {
  const via = agent.client.describe?.();
  if (via && via.provider !== 'Anthropic API') return 'none';
  if (agent.env.ANTHROPIC_API_KEY) return 'ANTHROPIC_API_KEY';
  if (agent.env.ANTHROPIC_AUTH_TOKEN) return 'ANTHROPIC_AUTH_TOKEN';
  return via?.credentials.startsWith('apiKeyHelper') ? 'apiKeyHelper' : 'none';
}

/** Gate traces of the current batch, written out just before the tool results they explain. */
type PendingTraces = Array<Record<string, unknown>>;

function emitStreamEvent(ev: AgentEvent, opts: CliOptions, agent: AgentOptions, io: PrintIO, pendingTraces: PendingTraces): void {
  const base = { session_id: agent.sessionId, uuid: randomUuid(), parent_tool_use_id: null };
  switch (ev.type) {
    case 'stream_event':
      if (opts.includePartialMessages) io.out(line({ type: 'stream_event', event: ev.event, ...base }));
      return;
    case 'assistant_message':
      io.out(line({ type: 'assistant', message: { ...ev.message, type: 'message' }, ...base }));
      return;
    case 'tool_results_message':
      // Gate traces go out just before the results they explain, after the assistant message.
      for (const t of pendingTraces.splice(0)) io.out(line({ type: 'system', subtype: 'gate_trace', ...t, ...base }));
      io.out(line({ type: 'user', message: ev.message, ...base }));
      return;
    case 'tool_result':
      if (opts.verbose) pendingTraces.push({ tool_use_id: ev.toolUseId, tool_name: ev.name, trace: ev.trace });
      return;
    case 'retry':
      io.out(
        line({
          type: 'system',
          subtype: 'api_retry',
          attempt: ev.attempt,
          max_retries: ev.maxRetries,
          retry_delay_ms: ev.delayMs,
          error_status: ev.status ?? null,
          error: ev.error,
          ...base,
        }),
      );
      return;
    case 'warning':
      io.out(line({ type: 'system', subtype: 'informational', message: ev.message, ...base }));
      return;
    case 'compact':
      io.out(line({ type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: ev.trigger, pre_tokens: ev.preTokens }, ...base }));
      return;
    case 'task_started':
      io.out(
        line({
          type: 'system',
          subtype: 'task_started',
          task_id: ev.taskId,
          ...(ev.toolUseId ? { tool_use_id: ev.toolUseId } : {}),
          description: ev.description,
          task_type: ev.taskType,
          ...base,
        }),
      );
      return;
    case 'task_progress': {
      const p = ev.progress;
      const usage = { total_tokens: p.usage.totalTokens, tool_uses: p.usage.toolUses, duration_ms: p.usage.durationMs };
      const named = { ...(p.lastToolName ? { last_tool_name: p.lastToolName } : {}), ...(p.subagentType ? { subagent_type: p.subagentType } : {}) };
      io.out(
        line({
          type: 'system',
          subtype: 'task_progress',
          task_id: p.taskId,
          ...(p.toolUseId ? { tool_use_id: p.toolUseId } : {}),
          description: p.description,
          usage,
          ...named,
          ...base,
        }),
      );
      return;
    }
    case 'task_notification': {
      const n = ev.notice;
      const usage = n.usage && { total_tokens: n.usage.totalTokens, tool_uses: n.usage.toolUses, duration_ms: n.usage.durationMs };
      io.out(
        line({
          type: 'system',
          subtype: 'task_notification',
          task_id: n.taskId,
          ...(n.toolUseId ? { tool_use_id: n.toolUseId } : {}),
          status: n.status,
          output_file: n.outputFile,
          summary: n.summary,
          ...(usage ? { usage } : {}),
          ...base,
        }),
      );
      return;
    }
    default:
      return;
  }
}
