/** The usage event of one model request, as the front ends and the totals read it. */
import { monotonicMs } from '../base/clock.js';
import type { AgentEvent } from '../base/events.js';
import { costOf, type Usage } from '../base/usage.js';

export type UsageEvent = Extract<AgentEvent, { type: 'usage' }>;

/** Its tokens, its cost at `model`'s prices (plus `extraCostUsd`, a web search's), and the time since `startedMs` (monotonicMs). */
export function usageEvent(model: string, usage: Usage, startedMs: number, extraCostUsd = 0): UsageEvent {
  return { type: 'usage', usage, costUsd: costOf(model, usage) + extraCostUsd, model, apiDurationMs: Math.round(monotonicMs() - startedMs) };
}
