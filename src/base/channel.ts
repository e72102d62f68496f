/** A tiny unbounded async queue: producers push, one consumer iterates until close(). */
export class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: (() => void) | undefined;
  private closed = false;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      while (this.items.length) yield this.items.shift()!;
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}
