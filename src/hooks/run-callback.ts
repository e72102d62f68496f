/**
 * Runs one `type: "callback"` hook: a function of the program that drives wicket through the Agent
 * SDK. The event's JSON (what a command hook reads on stdin) goes to it through an injected runner
 * (a `hook_callback` request), and its answer, a JSON object, is read as a command hook's stdout.
 * A callback that fails (an error answer, an answer that is not a JSON object, no answer within its
 * timeout) follows its `onFailure`: reported and ignored, or a block as with exit code 2. One that
 * cannot be delivered at all blocks whatever its `onFailure` says: no guard of the program's is
 * skipped. Stop and SubagentStop are never blocked by a failure (that would keep the model going).
 * Never throws.
 */
import type { CallbackHook } from '../base/hook-config.js';
import { randomUuid } from '../base/ids.js';
import type { HookRunOptions, HookRunResult } from './run-command.js';

export interface HookCallbackRequest {
  callbackId: string;
  /** The event's JSON, as a command hook gets it. */
  input: Record<string, unknown>;
  /** The call's id for tool events; a fresh id for the others (as Claude Code sends). */
  toolUseId: string;
}

/**
 * Delivers one callback and resolves with its answer. Rejects with HookCallbackUndelivered when the
 * request could not reach the program, with any other error when the program answered with one.
 * The signal ends at the hook's timeout or when the run is interrupted: the request is withdrawn.
 */
export type HookCallbackRunner = (request: HookCallbackRequest, signal: AbortSignal) => Promise<unknown>;

/** The request never reached the program (no channel, or it is closed). */
export class HookCallbackUndelivered extends Error {}

/** Events whose hooks a failure never blocks (the SDK's `onFailure` is ignored there). */
const NEVER_BLOCKED = new Set(['Stop', 'SubagentStop']);

type Failure = { kind: 'undelivered' | 'error' | 'invalid'; why: string } | { kind: 'timeout'; why: string };

export async function runCallbackHook(
  hook: CallbackHook,
  event: string,
  stdin: string,
  runner: HookCallbackRunner | undefined,
  opts: HookRunOptions,
): Promise<HookRunResult> {
  const started = Date.now();
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const result = (r: Partial<HookRunResult>): HookRunResult => ({
    stdout: '',
    stderr: '',
    timedOut: false,
    aborted: false,
    ...r,
    durationMs: Date.now() - started,
  });
  if (!runner) return result(failed(hook, event, { kind: 'undelivered', why: 'there is no SDK host to deliver it to' }, opts.timeoutMs));
  const input = parseInput(stdin);
  const toolUseId = typeof input.tool_use_id === 'string' ? input.tool_use_id : randomUuid();
  let answer: unknown;
  try {
    answer = await untilAborted(runner({ callbackId: hook.callbackId, input, toolUseId }, signal), signal);
  } catch (err) {
    if (opts.signal?.aborted) return result({ aborted: true });
    const failure: Failure = timeout.aborted
      ? { kind: 'timeout', why: `no answer within ${opts.timeoutMs / 1000} s` }
      : err instanceof HookCallbackUndelivered
        ? { kind: 'undelivered', why: `it could not be delivered to the SDK host: ${err.message}` }
        : { kind: 'error', why: `the SDK host answered with an error: ${err instanceof Error ? err.message : String(err)}` };
    return result(failed(hook, event, failure, opts.timeoutMs));
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return result(
      failed(hook, event, { kind: 'invalid', why: `the SDK host's answer is not a JSON object: ${JSON.stringify(answer) ?? 'nothing'}` }, opts.timeoutMs),
    );
  }
  // `{async: true}`: the callback goes on in the background and decides nothing.
  const json = (answer as { async?: unknown }).async === true ? {} : answer;
  return result({ exitCode: 0, stdout: JSON.stringify(json) });
}

/**
 * The run a failure amounts to: exit code 2 (a block) when the callback could not be delivered or
 * its onFailure is "block"; otherwise a non-blocking error (exit 1), or a timeout, that is reported.
 */
function failed(hook: CallbackHook, event: string, f: Failure, timeoutMs: number): Partial<HookRunResult> {
  const name = `hook callback ${hook.callbackId}`;
  const blocks = !NEVER_BLOCKED.has(event) && (f.kind === 'undelivered' || hook.onFailure === 'block');
  if (blocks) {
    const why = `${name} failed (${f.why}); blocked ${f.kind === 'undelivered' ? 'so that no guard of the SDK host is skipped' : 'as its onFailure is "block"'}`;
    // A PermissionRequest hook's exit code 2 decides nothing (as in Claude Code): the block is its denial.
    if (event === 'PermissionRequest') {
      const decision = { hookEventName: event, decision: { behavior: 'deny', message: why } };
      return { exitCode: 0, stdout: JSON.stringify({ systemMessage: why, hookSpecificOutput: decision }) };
    }
    return { exitCode: 2, stderr: why };
  }
  if (f.kind === 'timeout') return { timedOut: true, stderr: `${name}: no answer within ${timeoutMs / 1000} s` };
  return { exitCode: 1, stderr: `${name} failed: ${f.why}; its answer was treated as empty` };
}

/**
 * The runner's answer, or a rejection once the signal ends (a runner that ignores its signal cannot
 * hold the hook past its timeout). The runner's own later failure is then handled here: a run
 * interrupted while its hooks start must not leave a rejection nobody awaits.
 */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function parseInput(stdin: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(stdin);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
