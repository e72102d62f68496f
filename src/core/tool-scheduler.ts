/**
 * Runs one assistant message's tool calls (PRODUCT.md §3):
 * - calls are added as soon as their input block is complete, while the message still streams;
 * - consecutive concurrency-safe calls run together (at most `maxConcurrency`); any other call runs
 *   alone, after everything before it;
 * - results are handed back, and context changes applied, strictly in the model's order;
 * - a failed Bash call cancels its running siblings with an explanatory result;
 * - on abort, every call still gets exactly one result.
 */
import type { CallOutcome, ToolCall } from '../base/tool.js';
import type { ModelResult } from '../base/events.js';
import { ToolError } from '../base/errors.js';
import type { Prepared, RunnerEnv } from './tool-runner.js';
import { executeCall, prepareCall } from './tool-runner.js';

interface Entry {
  call: ToolCall;
  prepared: Prepared;
  safe: boolean;
  state: 'waiting' | 'running' | 'finished';
  controller: AbortController;
  outcome?: CallOutcome;
  applied: boolean;
  emitted: boolean;
}

export class ToolScheduler {
  private readonly entries: Entry[] = [];
  private readonly idle: Array<() => void> = [];
  private readonly onAbort = () => this.pump();

  constructor(
    private readonly env: RunnerEnv,
    private readonly signal: AbortSignal,
    private readonly maxConcurrency = 10,
  ) {}

  /** Adds a call whose input is complete; it starts at once when the rules allow. */
  add(call: ToolCall): void {
    // One scheduler per turn on the run's signal: listen from the first call until finish(), so
    // turns do not pile up listeners.
    if (!this.entries.length) this.signal.addEventListener('abort', this.onAbort, { once: true });
    const prepared = prepareCall(call, this.env);
    const summary = prepared.kind === 'ready' ? safeSummary(prepared) : call.name;
    this.env.emit({ type: 'tool_request', toolUseId: call.id, name: call.name, input: call.input, summary });
    const safe = prepared.kind === 'ready' ? isSafe(prepared) : true;
    const entry: Entry = { call, prepared, safe, state: 'waiting', controller: new AbortController(), applied: false, emitted: false };
    if (prepared.kind === 'done') {
      entry.state = 'finished';
      entry.outcome = prepared.outcome;
    }
    this.entries.push(entry);
    this.pump();
  }

  /** No more calls will come. Resolves with one outcome per call, in call order. */
  async finish(): Promise<Array<{ call: ToolCall; outcome: CallOutcome }>> {
    this.pump();
    while (!this.entries.every((e) => e.state === 'finished' && e.emitted)) {
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
    this.signal.removeEventListener('abort', this.onAbort);
    return this.entries.map((e) => ({ call: e.call, outcome: e.outcome! }));
  }

  private pump(): void {
    this.settleInOrder();
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (e.state !== 'waiting') continue;
      if (this.signal.aborted) {
        this.finishEntry(e, notRun(e));
        continue;
      }
      if (!this.canStart(i)) break;
      this.start(e);
    }
    this.settleInOrder();
    if (this.entries.every((e) => e.state === 'finished' && e.emitted)) this.idle.splice(0).forEach((r) => r());
  }

  private canStart(i: number): boolean {
    const e = this.entries[i]!;
    const before = this.entries.slice(0, i);
    if (!e.safe) return before.every((b) => b.state === 'finished' && b.applied);
    // A safe call joins the running group only if nothing unsafe is ahead of it, unfinished.
    if (before.some((b) => !b.safe && !(b.state === 'finished' && b.applied))) return false;
    const running = this.entries.filter((x) => x.state === 'running').length;
    return running < this.maxConcurrency;
  }

  private start(e: Entry): void {
    if (e.prepared.kind !== 'ready') return;
    e.state = 'running';
    const onAbort = () => e.controller.abort(this.signal.reason);
    this.signal.addEventListener('abort', onAbort, { once: true });
    executeCall(e.prepared, this.env, e.controller.signal)
      .catch((err) => failedOutcome(e, err))
      .then((outcome) => {
        this.signal.removeEventListener('abort', onAbort);
        if (outcome.failed && e.call.name === 'Bash') this.cancelSiblings(e);
        this.finishEntry(e, outcome);
        this.pump();
      });
  }

  private cancelSiblings(failed: Entry): void {
    const what = failed.prepared.kind === 'ready' ? safeSummary(failed.prepared) : failed.call.name;
    for (const other of this.entries) {
      if (other === failed || other.state !== 'running') continue;
      other.controller.abort(new ToolError('cancelled', `Cancelled because a parallel Bash call (${what}) failed.`));
    }
  }

  private finishEntry(e: Entry, outcome: CallOutcome): void {
    e.state = 'finished';
    e.outcome = outcome;
  }

  /** Applies context changes and emits results strictly in call order. */
  private settleInOrder(): void {
    for (const e of this.entries) {
      if (e.state !== 'finished') return;
      if (!e.applied) {
        e.applied = true;
        try {
          e.outcome?.contextChange?.(this.env.state);
        } catch {
          // a broken context change must not lose the result
        }
      }
      if (!e.emitted) {
        e.emitted = true;
        const o = e.outcome!;
        this.env.emit({
          type: 'tool_result',
          toolUseId: e.call.id,
          name: e.call.name,
          input: e.prepared.kind === 'ready' ? e.prepared.input : e.call.input,
          result: o.result,
          trace: o.trace,
          ...(o.display ? { display: o.display } : {}),
          durationMs: o.durationMs,
        });
      }
    }
  }
}

function isSafe(p: Extract<Prepared, { kind: 'ready' }>): boolean {
  try {
    return p.tool.isConcurrencySafe(p.input) === true;
  } catch {
    return false;
  }
}

function safeSummary(p: Extract<Prepared, { kind: 'ready' }>): string {
  try {
    return p.tool.summary(p.input);
  } catch {
    return p.tool.name;
  }
}

function notRun(e: Entry): CallOutcome {
  const result: ModelResult = { content: 'Interrupted by the user: the call did not run.', isError: true };
  const trace = e.prepared.kind === 'ready' ? [...e.prepared.trace] : [];
  trace.push({ gate: 'execute', verdict: 'aborted', durationMs: 0, detail: 'interrupted before it started' });
  return { result, trace, durationMs: 0 };
}

function failedOutcome(e: Entry, err: unknown): CallOutcome {
  const message = err instanceof Error ? err.message : String(err);
  const trace = e.prepared.kind === 'ready' ? [...e.prepared.trace] : [];
  trace.push({ gate: 'execute', verdict: 'failed', durationMs: 0, detail: message });
  return { result: { content: `<tool_use_error>internal error: ${message}</tool_use_error>`, isError: true }, trace, durationMs: 0, failed: true };
}
