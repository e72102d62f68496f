/**
 * What a credential command prints while a request waits for it (awsAuthRefresh's sign-in link and
 * code, gcpAuthRefresh's messages): the client hands each line on as a `notice` event while the
 * wait goes on, since the person may need it to finish the sign-in the command waits for.
 */

export class Notices {
  private items: string[] = [];
  private wake: (() => void) | undefined;

  readonly push = (text: string): void => {
    this.items.push(text);
    const w = this.wake;
    this.wake = undefined;
    w?.();
  };

  take(): string[] {
    const out = this.items;
    this.items = [];
    return out;
  }

  arrival(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }
}

/** Waits for `work`, yielding every notice that arrives meanwhile; then returns its value (or throws its error). */
export async function* awaitWithNotices<T>(work: Promise<T>, notices: Notices): AsyncGenerator<{ type: 'notice'; text: string }, T, void> {
  const state: { outcome?: { ok: true; value: T } | { ok: false; error: unknown } } = {};
  const settled = work.then(
    (value) => (state.outcome = { ok: true, value }),
    (error: unknown) => (state.outcome = { ok: false, error }),
  );
  for (;;) {
    for (const text of notices.take()) yield { type: 'notice', text };
    if (state.outcome) break;
    await Promise.race([settled, notices.arrival()]);
  }
  const outcome = state.outcome;
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
