/**
 * Work a tool's first call needs (the Bash parser: about 60 ms of compiling), done while the model
 * is thinking instead of when the call arrives. It starts only once a request has waited
 * `afterMs` without a word from the model, so a quick answer is never held up by it, and each
 * tool's warm-up runs at most once a process.
 */
import type { Tool } from '../base/tool.js';

/** Long enough that an answer already on its way is not delayed; far below a real API's first token. */
export const WARM_UP_AFTER_MS = 50;

const started = new WeakSet<Tool>();

/** Schedules the warm-ups of `tools`; the returned function cancels those not started yet. */
export function warmUpWhileWaiting(tools: readonly Tool[], afterMs = WARM_UP_AFTER_MS): () => void {
  const pending = tools.filter((t) => t.warmUp && !started.has(t));
  if (pending.length === 0) return () => {};
  const timer = setTimeout(() => {
    for (const t of pending) {
      if (started.has(t)) continue;
      started.add(t);
      // A failed warm-up costs nothing: the call itself meets the same failure and reports it.
      t.warmUp!().catch(() => {});
    }
  }, afterMs);
  timer.unref?.();
  return () => clearTimeout(timer);
}
