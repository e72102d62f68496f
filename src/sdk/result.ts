/**
 * The `result` line that ends every prompt's run, with Claude Code's field names: what print mode's
 * json and stream-json outputs and the Agent SDK read. `track` gathers the run's figures from its
 * events; `resultObject` makes the line.
 */
import type { AgentOptions } from '../core/agent-options.js';
import type { AgentEvent } from '../base/events.js';
import { addUsage, emptyUsage, type Usage } from '../base/usage.js';
import { addToTotals, emptyTotals, type Totals } from '../core/run-prompt.js';
import { randomUuid } from '../base/ids.js';
import { contextWindowOf } from '../base/models.js';
import { RunFigures } from '../core/run-figures.js';

type DoneEvent = Extract<AgentEvent, { type: 'done' }>;
type ErrorEvent = Extract<AgentEvent, { type: 'error' }>;

export interface RunState {
  totals: Totals;
  turns: number;
  denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
  /** The same denials as the core reported them (why, and what would allow them). */
  denialEvents: Array<Extract<AgentEvent, { type: 'permission_denied' }>>;
  startedAt: number;
  budgetHit: boolean;
  errors: string[];
  /** The API's own error (an HTTP status), when one ended the run. */
  apiError?: NonNullable<ErrorEvent['api']>;
  /** The stop reason of the run's last API response. */
  stopReason?: string | null;
  /** What the session spent before this run (--max-budget-usd counts the whole session's spend). */
  costBefore: number;
  /** Time to the first word, refusals, sub-agents and fast mode, as Claude Code's result tells them. */
  figures: RunFigures;
}

export function newRunState(costBefore = 0): RunState {
  return {
    totals: emptyTotals(),
    turns: 0,
    denials: [],
    denialEvents: [],
    startedAt: Date.now(),
    budgetHit: false,
    errors: [],
    costBefore,
    figures: new RunFigures(),
  };
}

/**
 * The results of one process, as Claude Code numbers them (`result_index`) and counts them:
 * `total_cost_usd`, `modelUsage` and `duration_api_ms` run on across the turns of a session, while
 * `usage`, `duration_ms` and `model_usage_since_last_result` are the turn's own.
 */
export class ResultSeries {
  /** Cost, API time and tokens of every finished run so far (also what get_usage reports). */
  readonly spent: Totals = emptyTotals();
  private count = 0;

  newRun(): RunState {
    return newRunState(this.spent.costUsd);
  }

  /** The result line of a finished run, which joins the session's totals. */
  finish(done: DoneEvent | undefined, st: RunState, agent: AgentOptions, o: ResultOptions = {}): ResultObject {
    mergeTotals(this.spent, st.totals);
    return resultObject(done, st, agent, o, { spent: this.spent, index: this.count++ });
  }
}

function mergeTotals(into: Totals, add: Totals): void {
  into.costUsd += add.costUsd;
  into.apiMs += add.apiMs;
  into.usage = addUsage(into.usage, add.usage);
  for (const [model, m] of add.byModel) {
    const prev = into.byModel.get(model);
    into.byModel.set(model, prev ? { usage: addUsage(prev.usage, m.usage), costUsd: prev.costUsd + m.costUsd } : { usage: { ...m.usage }, costUsd: m.costUsd });
  }
}

/** Notes what an event tells of the run; returns true when it went over --max-budget-usd (the caller stops the run). */
export function track(ev: AgentEvent, st: RunState, maxBudgetUsd: number | undefined): boolean {
  st.figures.see(ev);
  if (ev.type === 'usage') {
    addToTotals(st.totals, ev);
    if (maxBudgetUsd !== undefined && st.costBefore + st.totals.costUsd > maxBudgetUsd && !st.budgetHit) {
      st.budgetHit = true;
      return true;
    }
  } else if (ev.type === 'permission_denied') {
    st.denials.push({ tool_name: ev.name, tool_use_id: ev.toolUseId, tool_input: ev.input });
    st.denialEvents.push(ev);
  } else if (ev.type === 'error') {
    st.errors.push(ev.message);
    if (ev.api) st.apiError = ev.api;
  } else if (ev.type === 'turn_start') st.turns = ev.turn;
  else if (ev.type === 'turn_end') st.stopReason = ev.stopReason;
  return false;
}

/** With --json-schema, a model that ends without calling StructuredOutput is asked again with this (twice at most). */
export const STRUCTURED_NUDGE = 'You have not called the StructuredOutput tool. Call it now with your final answer, in the shape its schema requires.';

export type ResultObject = Record<string, unknown> & { is_error: boolean; result?: string; errors?: string[] };

export interface ResultOptions {
  /** --json-schema: a run that ends without the structured output is an error. */
  wantStructured?: boolean;
  /**
   * An API error response ends the run as Claude Code ends it for the Agent SDK: subtype
   * `success`, `is_error`, and `result` "API Error: <status> <message>", with its status and type.
   */
  apiErrorAsResult?: boolean;
  /** Prompts still waiting behind this one (`queued_turn_count`), when the mode has a queue to count. */
  queued?: number;
  /**
   * A hook that stopped the run (`continue: false`, a blocked prompt) ends it as Claude Code ends it
   * for the Agent SDK: subtype `success`, not an error, `terminal_reason` hook_stopped.
   */
  hookStopAsSuccess?: boolean;
}

/** The session's totals so far (this run's included) and the result's number. */
interface SeriesPlace {
  spent: Totals;
  index: number;
}

function resultObject(done: DoneEvent | undefined, st: RunState, agent: AgentOptions, o: ResultOptions, series: SeriesPlace): ResultObject {
  const errors = st.errors;
  const structured = agent.state.structuredOutput;
  const missingStructured = o.wantStructured && done?.reason === 'completed' && structured === undefined;
  if (missingStructured) errors.push('the model did not return the structured output (--json-schema) after being asked twice');
  const apiError = o.apiErrorAsResult && done?.reason === 'error' ? st.apiError : undefined;
  const hookStop = o.hookStopAsSuccess === true && done?.reason === 'hook_stopped';
  const subtype = hookStop ? 'success' : resultSubtype(done, st, Boolean(missingStructured), apiError !== undefined);
  const isError = subtype !== 'success' || apiError !== undefined;
  if (done?.reason === 'max_turns') errors.push(`Reached maximum number of turns (${agent.maxTurns})`);
  if (done?.reason === 'aborted') errors.push(st.budgetHit ? 'reached the budget set by --max-budget-usd' : 'interrupted');
  if (done?.reason === 'hook_stopped' && done.error) errors.push(`stopped by a hook: ${done.error}`);
  if (done?.reason === 'tool_deferred_unavailable' && done.error) errors.push(done.error);
  if (!done) errors.push('the run ended without a result');
  const outcome = apiError
    ? { result: apiErrorText(apiError), api_error_status: apiError.status, ...(apiError.type ? { api_error_type: apiError.type } : {}) }
    : isError
      ? { errors: [...new Set(errors)] }
      : { result: done?.finalText ?? '' };
  return {
    type: 'result',
    subtype,
    is_error: isError,
    duration_ms: Date.now() - st.startedAt,
    duration_api_ms: series.spent.apiMs,
    num_turns: done?.numTurns ?? st.turns,
    ...(apiError || isError ? {} : { api_error_status: null }),
    ...outcome,
    stop_reason: stopReason(done, st, apiError !== undefined),
    terminal_reason: terminalReason(done, apiError !== undefined),
    ...(done?.deferredToolUse ? { deferred_tool_use: done.deferredToolUse } : {}),
    session_id: agent.sessionId,
    total_cost_usd: round(series.spent.costUsd),
    usage: turnUsage(st, agent),
    modelUsage: modelUsage(series.spent, agent),
    model_usage_since_last_result: modelUsage(st.totals, agent),
    permission_denials: st.denials,
    ...st.figures.fields(),
    ...(structured !== undefined ? { structured_output: structured } : {}),
    ...(o.queued !== undefined ? { queued_turn_count: o.queued } : {}),
    result_index: series.index,
    uuid: randomUuid(),
  };
}

/** The stop reason of the last assistant message: the API's, or the synthetic error message's. */
function stopReason(done: DoneEvent | undefined, st: RunState, apiError: boolean): string | null {
  if (done?.deferredToolUse) return done.reason;
  if (apiError) return 'stop_sequence';
  return st.stopReason ?? (done?.reason === 'completed' ? 'end_turn' : null);
}

function resultSubtype(done: DoneEvent | undefined, st: RunState, missingStructured: boolean, apiError: boolean): string {
  if (st.budgetHit) return 'error_max_budget_usd';
  if (missingStructured) return 'error_max_structured_output_retries';
  if (apiError || done?.reason === 'completed' || done?.reason === 'tool_deferred') return 'success';
  return done?.reason === 'max_turns' ? 'error_max_turns' : 'error_during_execution';
}

function terminalReason(done: DoneEvent | undefined, apiError: boolean): string {
  if (apiError) return 'api_error';
  if (done?.reason === 'completed') return 'completed';
  if (done?.reason === 'aborted') return 'aborted';
  return done?.reason ?? 'error';
}

/** Claude Code's text for an API error response: `API Error: 400 max_tokens: Field required`. */
export function apiErrorText(e: NonNullable<ErrorEvent['api']>): string {
  return `API Error: ${e.status} ${e.message}`;
}

/** The run's own tokens on the main model (Claude Code's `usage`: the main loop's, per turn). */
function turnUsage(st: RunState, agent: AgentOptions): Usage {
  return st.totals.byModel.get(agent.model)?.usage ?? emptyUsage();
}

function modelUsage(totals: Totals, agent: AgentOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [model, m] of totals.byModel) {
    out[model] = {
      inputTokens: m.usage.input_tokens,
      outputTokens: m.usage.output_tokens,
      cacheReadInputTokens: m.usage.cache_read_input_tokens,
      cacheCreationInputTokens: m.usage.cache_creation_input_tokens,
      webSearchRequests: 0,
      costUSD: m.costUsd,
      contextWindow: contextWindowOf(model),
      maxOutputTokens: agent.maxTokens ?? 32_000,
    };
  }
  return out;
}

function round(n: number): number {
  return Math.round(n * 1e8) / 1e8;
}
