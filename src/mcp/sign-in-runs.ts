/**
 * The OAuth sign-ins under way, one a server (servers.ts): a second sign-in to the same server
 * cancels the first and waits for it to end; closing the session cancels them all.
 */
export class SignInRuns {
  private readonly runs = new Map<string, { abort: AbortController; done: Promise<unknown> }>();

  /**
   * Runs `start` for `name` once the sign-in still running for it, if any, was cancelled and ended;
   * `then` follows its success before the run counts as over.
   */
  async run<T>(name: string, start: (signal: AbortSignal) => Promise<T>, then: () => Promise<void>): Promise<T> {
    const before = this.runs.get(name);
    before?.abort.abort();
    await before?.done;
    const abort = new AbortController();
    const run = start(abort.signal);
    const entry = { abort, done: run.catch(() => {}) };
    this.runs.set(name, entry);
    try {
      const result = await run;
      await then();
      return result;
    } finally {
      if (this.runs.get(name) === entry) this.runs.delete(name);
    }
  }

  cancel(name: string): void {
    this.runs.get(name)?.abort.abort();
  }

  cancelAll(): void {
    for (const r of this.runs.values()) r.abort.abort();
  }
}
