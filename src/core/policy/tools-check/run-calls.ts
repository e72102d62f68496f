/** Calls through the real gate runner and scheduler for `tools check`, and what their outcomes say. */
import type { CallOutcome } from '../../../base/tool.js';
import type { GateRecord } from '../../../base/events.js';
import { executeCall, prepareCall, type RunnerEnv } from '../../tool-runner.js';
import { ToolScheduler } from '../../tool-scheduler.js';

/** How long a real run may take before the check gives up on it. */
export const RUN_LIMIT_MS = 15_000;

let next = 0;
const callId = () => `toolu_check_${++next}`;

/** One call through every gate. */
export async function runOne(env: RunnerEnv, name: string, input: unknown): Promise<CallOutcome> {
  const prepared = prepareCall({ id: callId(), name, input }, env);
  if (prepared.kind === 'done') return prepared.outcome;
  return executeCall(prepared, env, new AbortController().signal);
}

/** Calls of one message, through the scheduler (which batches the concurrency-safe ones), stopped after RUN_LIMIT_MS. */
export async function runBatch(env: RunnerEnv, name: string, inputs: unknown[]): Promise<{ outcomes: CallOutcome[]; timedOut: boolean }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('time limit')), RUN_LIMIT_MS);
  try {
    const s = new ToolScheduler(env, abort.signal);
    for (const input of inputs) s.add({ id: callId(), name, input });
    const done = await s.finish();
    return { outcomes: done.map((d) => d.outcome), timedOut: abort.signal.aborted };
  } finally {
    clearTimeout(timer);
  }
}

/** The gate that refused the call before it ran (parse or validate), when its result names it. */
export function refusedBefore(o: CallOutcome): 'parse' | 'validate' | undefined {
  const r = o.trace.find((x) => x.verdict === 'refused' && (x.gate === 'parse' || x.gate === 'validate'));
  if (!r) return undefined;
  const text = typeof o.result.content === 'string' ? o.result.content : '';
  return text.includes(`[${r.gate}]`) ? (r.gate as 'parse' | 'validate') : undefined;
}

/** The last gate the call reached. */
export function lastGate(o: CallOutcome): GateRecord | undefined {
  return o.trace[o.trace.length - 1];
}

/** The record of the permission gate. */
export function permissionRecord(o: CallOutcome): GateRecord | undefined {
  return o.trace.find((r) => r.gate === 'permission');
}

/** What the model would read, for comparing runs. */
export function resultText(o: CallOutcome): string {
  return JSON.stringify(o.result);
}
