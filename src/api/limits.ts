/**
 * How long one Messages API request may take, so that a server that goes silent never holds the run:
 *
 * - the idle limit (`WICKET_API_IDLE_TIMEOUT_MS`, default 60 s): the response headers must arrive
 *   within it (counted from the moment the request starts, then again once its body is sent: a
 *   connection, a proxy's CONNECT or a TLS handshake that hangs is caught here), and after them the
 *   stream must deliver an event within it each time. Any complete server-sent event counts,
 *   `ping` included (the API sends pings to keep a quiet stream alive); comment lines and stray
 *   bytes that never complete an event do not.
 * - the whole-request limit (`API_TIMEOUT_MS`, default 600 s, as in Claude Code): from the start
 *   to the last event, whatever the server sends meanwhile. It is what bounds a server that sends
 *   pings and nothing else.
 *
 * A request that passes either limit is abandoned and retried like a dropped connection.
 */
import { APIConnectionTimeoutError } from '@anthropic-ai/sdk/core/error';
import { monotonicMs } from '../base/clock.js';

export interface ApiLimits {
  /** Longest silence: before the response headers, and between two events of the stream. */
  idleMs: number;
  /** Longest a whole request may take, from its start to its last event. */
  totalMs: number;
}

export const IDLE_ENV = 'WICKET_API_IDLE_TIMEOUT_MS';
export const TOTAL_ENV = 'API_TIMEOUT_MS';
export const DEFAULT_LIMITS: ApiLimits = { idleMs: 60_000, totalMs: 600_000 };

/** The limits from the environment; a value that is not a positive number keeps the default. */
export function apiLimitsFromEnv(env: Record<string, string | undefined>): ApiLimits {
  return { idleMs: positive(env[IDLE_ENV]) ?? DEFAULT_LIMITS.idleMs, totalMs: positive(env[TOTAL_ENV]) ?? DEFAULT_LIMITS.totalMs };
}

function positive(v: string | number | undefined): number | undefined {
  const n = typeof v === 'number' ? v : v !== undefined && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Limits with any missing or unusable value replaced by its default. */
export function normalLimits(limits: Partial<ApiLimits> | undefined): ApiLimits {
  return { idleMs: positive(limits?.idleMs) ?? DEFAULT_LIMITS.idleMs, totalMs: positive(limits?.totalMs) ?? DEFAULT_LIMITS.totalMs };
}

/** A request abandoned because a limit passed: a connection failure, retried as one. */
export class ApiTimeoutError extends APIConnectionTimeoutError {
  constructor(message: string) {
    super({ message });
  }
}

/** "200 ms", "1.5 s", "60 s". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

type Phase = 'connecting' | 'headers' | 'stream';

/**
 * The timers of one request. `expire` gets the error to end the request with (destroy the
 * request before the headers, the response after); it is called at most once. Activity only
 * notes the time: the one idle timer, when it fires, first lets pending input be read (a busy
 * event loop must not make a live server look silent), then sleeps again for what is left.
 */
export class RequestWatch {
  private phase: Phase = 'connecting';
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly total: ReturnType<typeof setTimeout>;
  private last = monotonicMs();
  private over = false;

  constructor(
    private readonly limits: ApiLimits,
    private readonly expire: (err: ApiTimeoutError) => void,
    /** " (through the proxy …)" when a proxy carries the request. */
    private readonly via = '',
  ) {
    this.total = setTimeout(() => this.fire(`the API's answer took longer than ${duration(limits.totalMs)} (${TOTAL_ENV})`), limits.totalMs);
    this.sleep(limits.idleMs);
  }

  /** The request's body has gone out: the wait for the headers starts again. */
  bodySent(): void {
    if (this.phase === 'connecting') this.phase = 'headers';
    this.activity();
  }

  /** The response headers arrived: from now on, each event must follow the last within the idle limit. */
  headers(): void {
    this.phase = 'stream';
    this.activity();
  }

  /** An event (or a piece of an error body) arrived. */
  activity(): void {
    this.last = monotonicMs();
  }

  /** The request is over, one way or another. */
  end(): void {
    this.over = true;
    clearTimeout(this.idle);
    clearTimeout(this.total);
  }

  private sleep(ms: number): void {
    if (this.over) return;
    this.idle = setTimeout(() => setImmediate(() => this.wake()), ms);
  }

  private wake(): void {
    if (this.over) return;
    const quiet = monotonicMs() - this.last;
    if (quiet >= this.limits.idleMs) this.fire(this.silence());
    else this.sleep(this.limits.idleMs - quiet);
  }

  private silence(): string {
    const d = duration(this.limits.idleMs);
    if (this.phase === 'stream') return `the API sent nothing for ${d} in the middle of its answer (${IDLE_ENV})`;
    const what = this.phase === 'connecting' ? 'while the connection was being made' : 'after the request was sent, before its response headers';
    return `the API sent nothing for ${d} ${what}${this.via} (${IDLE_ENV})`;
  }

  private fire(message: string): void {
    if (this.over) return;
    this.end();
    this.expire(new ApiTimeoutError(message));
  }
}
