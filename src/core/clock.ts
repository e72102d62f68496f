/**
 * Milliseconds on a monotonic clock, for durations. Node 20 loads `perf_hooks` (and its timing
 * machinery) the first time `performance` is touched; `process.hrtime` is already there.
 */
export function monotonicMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}
