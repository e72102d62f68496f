/**
 * Milliseconds on a monotonic clock, for durations. Node 20 loads `perf_hooks` (and its timing
 * machinery) the first time `performance` is touched; `process.hrtime` is already there.
 */
export function monotonicMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

/**
 * The time in ISO 8601, UTC, as `Date#toISOString` writes it (years 0–9999). The first
 * `toISOString` in a process costs about 0.3 ms; the UTC getters do not.
 */
export function isoTime(date: Date = new Date()): string {
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  const day = `${p(date.getUTCFullYear(), 4)}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())}`;
  return `${day}T${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())}.${p(date.getUTCMilliseconds(), 3)}Z`;
}
