/**
 * The events of a streamed response, decoded as they arrive (the SDK's server-sent-event decoder),
 * so that the idle limit sees the server's activity whatever pace the caller reads at. Pings and
 * nameless events are activity but not events; an `error` event becomes the SDK's typed error.
 */
import type { IncomingMessage } from 'node:http';
import { APIError } from '@anthropic-ai/sdk/core/error';
import { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { RequestWatch } from './limits.js';

interface Headers {
  get(name: string): string | null;
}

/** The decoded events of `res`; `watch` hears of each one (pings too) and of the end. */
export function eventsOf(res: IncomingMessage, headers: Headers, watch: RequestWatch): AsyncIterable<unknown> {
  const queue = new EventQueue(() => res.destroy());
  const controller = new AbortController();
  controller.signal.addEventListener('abort', () => res.destroy(), { once: true });
  const body = { [Symbol.asyncIterator]: () => chunksOf(res) };
  void (async () => {
    try {
      for await (const sse of Stream.rawEvents({ body, headers } as never, controller)) {
        watch.activity();
        if (sse.event === 'ping' || sse.event === null || (!sse.data && sse.event !== 'error')) continue;
        if (sse.event === 'error') {
          const parsed = safeJSON(sse.data);
          const type = (parsed as { error?: { type?: string } } | undefined)?.error?.type;
          throw new APIError(undefined, parsed ?? sse.data, undefined, headers as never, type as never);
        }
        queue.push(JSON.parse(sse.data));
      }
      queue.end();
    } catch (err) {
      queue.fail(err);
    } finally {
      watch.end();
    }
  })();
  return queue;
}

/** An unbounded queue of events that ends, or fails, once; `onReturn` runs when the reader stops early. */
class EventQueue implements AsyncIterable<unknown> {
  private readonly items: unknown[] = [];
  private ended = false;
  private failure: { err: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly onReturn: () => void) {}

  push(item: unknown): void {
    this.items.push(item);
    this.notify();
  }
  end(): void {
    this.ended = true;
    this.notify();
  }
  fail(err: unknown): void {
    this.failure ??= { err };
    this.notify();
  }
  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    return {
      next: async () => {
        for (;;) {
          if (this.items.length) return { done: false, value: this.items.shift() };
          if (this.failure) throw this.failure.err;
          if (this.ended) return { done: true, value: undefined };
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
      },
      return: async () => {
        this.onReturn();
        return { done: true, value: undefined };
      },
    };
  }
}

/**
 * The response's chunks, from its events. A Readable's own async iterator does the same with
 * end-of-stream machinery that costs a few milliseconds to start in a short run. A connection
 * that closes before the response is complete ends the iteration with an error, so the turn is
 * retried rather than taken as finished.
 */
export function chunksOf(res: IncomingMessage): AsyncIterator<Buffer> {
  const queue: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  res.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    notify();
  });
  res.on('end', () => {
    ended = true;
    notify();
  });
  res.on('error', (err) => {
    failure ??= err;
    notify();
  });
  res.on('close', () => {
    if (!ended) failure ??= new Error('the connection closed before the response was complete');
    notify();
  });
  return {
    async next() {
      for (;;) {
        const chunk = queue.shift();
        if (chunk) return { done: false, value: chunk };
        if (failure) throw failure;
        if (ended) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return() {
      res.destroy();
      return { done: true, value: undefined };
    },
  };
}

export function safeJSON(text: string): object | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}
