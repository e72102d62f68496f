/**
 * When and how long to wait before retrying a model request: 429, 529, 5xx and dropped connections
 * are retried with exponential backoff and jitter, honouring `retry-after`; 4xx errors are not.
 */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export function retryPolicyFromEnv(env: Record<string, string | undefined>): RetryPolicy {
  const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
  return {
    maxRetries: num(env.WICKET_MAX_RETRIES, 8),
    baseDelayMs: num(env.WICKET_RETRY_BASE_DELAY_MS, 500),
    maxDelayMs: num(env.WICKET_RETRY_MAX_DELAY_MS, 32_000),
  };
}

/** Is this HTTP status (undefined = connection failure) worth another attempt? */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true;
  return status === 408 || status === 409 || status === 429 || status === 529 || status >= 500;
}

/** Parses `retry-after` (seconds or HTTP date) and `retry-after-ms`. Returns ms or undefined. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (!ra) return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Delay before attempt `attempt` (1-based retry count). `random` is injected for tests. */
export function retryDelay(attempt: number, policy: RetryPolicy, retryAfterMs?: number, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, 60_000);
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jitter = exp * 0.25 * random();
  return Math.round(exp - jitter);
}

/** Waits `ms`, or rejects when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
