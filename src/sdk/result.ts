/**
 * The `result` line that ends every prompt's run, with Claude Code's field names: what print mode's
 * json and stream-json outputs and the Agent SDK read. `track` gathers the run's figures from its
 * events; `resultObject` makes the line.
 */
import type { AgentOptions } from '../core/agent-options.js';
import type { AgentEvent } from '../base/events.js';
import { addUsage, emptyUsage } from '../base/usage.js';
import { addToTotals, emptyTotals, type Totals } from '../core/run-prompt.js';
import { randomUuid } from '../base/ids.js';
import { contextWindowOf } from '../base/models.js';

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
}

export function newRunState(): RunState {
  return { totals: emptyTotals(), turns: 0, denials: [], denialEvents: [], startedAt: Date.now(), budgetHit: false, errors: [] };
}

/** Notes what an event tells of the run; returns true when it went over --max-budget-usd (the caller stops the run). */
export function track(ev: AgentEvent, st: RunState, maxBudgetUsd: number | undefined): boolean {
  if (ev.type === 'usage') {
    addToTotals(st.totals, ev);
    if (maxBudgetUsd !== undefined && st.totals.costUsd > maxBudgetUsd && !st.budgetHit) {
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
}

export function resultObject(done: DoneEvent | undefined, st: RunState, agent: AgentOptions, o: ResultOptions = {}): ResultObject {
  const errors = st.errors;
  const structured = agent.state.structuredOutput;
  const missingStructured = o.wantStructured && done?.reason === 'completed' && structured === undefined;
  if (missingStructured) errors.push('the model did not return the structured output (--json-schema) after being asked twice');
  const apiError = o.apiErrorAsResult && done?.reason === 'error' ? st.apiError : undefined;
  const subtype = resultSubtype(done, st, Boolean(missingStructured), apiError !== undefined);
  const isError = subtype !== 'success' || apiError !== undefined;
  if (done?.reason === 'max_turns') errors.push(`reached the maximum number of turns (${agent.maxTurns})`);
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
    duration_api_ms: st.totals.apiMs,
    num_turns: done?.numTurns ?? st.turns,
    ...outcome,
    stop_reason: done?.reason === 'completed' ? 'end_turn' : done?.deferredToolUse ? done.reason : null,
    terminal_reason: terminalReason(done, apiError !== undefined),
    ...(done?.deferredToolUse ? { deferred_tool_use: done.deferredToolUse } : {}),
    session_id: agent.sessionId,
    total_cost_usd: round(st.totals.costUsd),
    ...usageFields(st, agent),
    permission_denials: st.denials,
    ...(structured !== undefined ? { structured_output: structured } : {}),
    uuid: randomUuid(),
  };
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

function usageFields(st: RunState, agent: AgentOptions): { usage: ReturnType<typeof emptyUsage>; modelUsage: Record<string, unknown> } {
  let usage = emptyUsage();
  const modelUsage: Record<string, unknown> = {};
  for (const [model, m] of st.totals.byModel) {
    if (model === agent.model) usage = addUsage(usage, m.usage);
    modelUsage[model] = {
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
  return { usage, modelUsage };
}

function round(n: number): number {
  return Math.round(n * 1e8) / 1e8;
}
