/**
 * MCP servers' requests for the person's input, waiting for the app's dialog: each waits its turn,
 * the app shows the first. A request the server withdraws (its signal aborts), or that an interrupt
 * ends, is answered with cancel.
 */
import type { ElicitationAnswer, ElicitationRequest } from '../mcp/elicitation.js';

export interface PendingElicitation {
  readonly id: number;
  readonly request: ElicitationRequest;
}

export class ElicitationQueue {
  private pending: Array<PendingElicitation & { resolve: (a: ElicitationAnswer) => void }> = [];
  private readonly listeners = new Set<() => void>();
  private readonly completions = new Set<(server: string, elicitationId: string) => void>();
  private next = 1;

  /** For the elicitation flow: shows the request, resolves with the person's answer. */
  readonly ask = (request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> =>
    new Promise((resolve) => {
      const entry = {
        id: this.next++,
        request,
        resolve: (a: ElicitationAnswer) => {
          signal.removeEventListener('abort', onAbort);
          this.pending = this.pending.filter((e) => e !== entry);
          this.changed();
          resolve(a);
        },
      };
      const onAbort = () => entry.resolve({ action: 'cancel' });
      if (signal.aborted) return resolve({ action: 'cancel' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.push(entry);
      this.changed();
    });

  list(): readonly PendingElicitation[] {
    return this.pending.map(({ id, request }) => ({ id, request }));
  }

  answer(id: number, answer: ElicitationAnswer): void {
    this.pending.find((e) => e.id === id)?.resolve(answer);
  }

  /** Every waiting request is cancelled (the run was interrupted). */
  cancelAll(): void {
    for (const e of [...this.pending]) e.resolve({ action: 'cancel' });
  }

  /** Calls `listener` whenever the queue changes; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A server said a URL step finished. */
  completed(server: string, elicitationId: string): void {
    for (const l of this.completions) l(server, elicitationId);
  }

  onCompleted(listener: (server: string, elicitationId: string) => void): () => void {
    this.completions.add(listener);
    return () => this.completions.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
