/**
 * Stopping a command together with everything it started. Commands wicket runs (Bash, hooks,
 * credential helpers) are spawned `detached`, so each leads a process group of its own; a signal
 * sent to the negated pid reaches the whole group.
 */

/** Sends `signal` to the group led by `pid`; falls back to the process alone when the group is gone. */
export function killProcessGroup(pid: number | undefined, signal: NodeJS.Signals, fallback?: (signal: NodeJS.Signals) => void): void {
  if (pid === undefined || pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      fallback?.(signal);
    } catch {
      // already gone
    }
  }
}

export interface GroupDeadline {
  /** True once the time limit fired and the group was killed. */
  readonly timedOut: boolean;
  /** Clears the timer and the abort listener; call once the command has finished. */
  release(): void;
}

/**
 * Kills the group with SIGKILL when `timeoutMs` passes or `signal` aborts, whichever comes first.
 * `child` is the spawned process: its pid leads the group, its own kill() is the fallback.
 */
export function killGroupOnDeadline(
  child: { pid?: number | undefined; kill(signal?: NodeJS.Signals): unknown },
  timeoutMs: number,
  signal?: AbortSignal,
): GroupDeadline {
  let timedOut = false;
  const kill = () => killProcessGroup(child.pid, 'SIGKILL', (s) => child.kill(s));
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  signal?.addEventListener('abort', kill, { once: true });
  return {
    get timedOut() {
      return timedOut;
    },
    release() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
    },
  };
}
