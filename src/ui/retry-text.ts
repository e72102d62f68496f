/**
 * A failed request the client retries, in a few words: "connection refused", "overloaded (529)".
 * The first retry of a run is a line in the transcript; later ones only update the status line.
 */

const BY_CODE: Array<[RegExp, string]> = [
  [/ECONNREFUSED/, 'connection refused'],
  [/ENOTFOUND|EAI_AGAIN/, 'host not found'],
  [/ECONNRESET|socket hang up/i, 'connection reset'],
  [/ETIMEDOUT|timed? ?out/i, 'timed out'],
  [/EHOSTUNREACH|ENETUNREACH/, 'network unreachable'],
  [/certificate|CERT_|SSL|TLS/i, 'TLS error'],
];

export function retryCause(error: string, status?: number): string {
  if (status === 529) return 'overloaded (529)';
  if (status === 429) return 'rate limited (429)';
  if (status !== undefined) return `server error (${status})`;
  for (const [re, words] of BY_CODE) if (re.test(error)) return words;
  return 'connection failed';
}

/** The status line's words while a retry waits. */
export function retryStatus(ev: { attempt: number; maxRetries: number; error: string; status?: number }): string {
  return `retrying (${retryCause(ev.error, ev.status)})… attempt ${ev.attempt}/${ev.maxRetries}`;
}

/** The transcript's line at the first retry of a run. */
export function retryLine(ev: { delayMs: number; error: string; status?: number }): string {
  return `API error: ${ev.error} · retrying (${retryCause(ev.error, ev.status)})…`;
}
