/**
 * stdin in the SDK mode: NDJSON lines, read as they come and never held up. Control messages go to
 * the control channel (their handlers run on their own); `user` lines queue up as turns; the end of
 * input closes the queue and the channel.
 */
import type { ContentBlock } from '../base/events.js';
import { randomUuid } from '../base/ids.js';
import { isObject } from './control-channel.js';
import type { InitializeRequest, SdkSession } from './session.js';

/** One `user` line: a turn to run. */
export interface SdkUserLine {
  content: string | ContentBlock[];
  /** The line's own uuid (the SDK's SDKUserMessage.uuid), or one made for it: replays and results name it. */
  uuid: string;
  /** `client_composed`: the host composed the text (the SDK's verbatimPrompts), so it goes as written: no `/command`, no `@` mention. */
  composed?: boolean;
}

export interface SdkInputOptions {
  /** A warning for stderr (a line that is not JSON, a message type wicket does not take). */
  warn: (message: string) => void;
}

/** The queue of turns: read by the turn runner, inspected and trimmed by interrupt and cancel_async_message. */
export class TurnQueue implements AsyncIterable<SdkUserLine> {
  private readonly items: SdkUserLine[] = [];
  private waiting: (() => void) | undefined;
  private closed = false;

  push(item: SdkUserLine): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  get ended(): boolean {
    return this.closed;
  }

  /** The uuids of the turns waiting to run. */
  queued(): string[] {
    return this.items.map((i) => i.uuid);
  }

  /** Drops waiting turns (all, or the one with this uuid); returns the uuids dropped. */
  drop(uuid?: string): string[] {
    const gone = this.items.filter((i) => uuid === undefined || i.uuid === uuid);
    for (const g of gone) this.items.splice(this.items.indexOf(g), 1);
    return gone.map((g) => g.uuid);
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SdkUserLine> {
    for (;;) {
      while (this.items.length) yield this.items.shift()!;
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

/** Types of stdin lines wicket reads and has nothing to do with. */
const IGNORED = new Set(['keep_alive']);

export class SdkInput {
  readonly turns = new TurnQueue();
  /** Resolves at the first line that lets the session start (initialize, a user message) or at the end of input. */
  readonly started: Promise<void>;
  private markStarted!: () => void;
  private readonly warned = new Set<string>();

  constructor(
    private readonly session: SdkSession,
    private readonly opts: SdkInputOptions,
  ) {
    this.started = new Promise((resolve) => (this.markStarted = resolve));
  }

  /** Starts reading `input` (stdin); returns at once. */
  read(input: NodeJS.ReadableStream): void {
    const { createInterface } = process.getBuiltinModule('node:readline');
    const rl = createInterface({ input, crlfDelay: Infinity });
    rl.on('line', (line) => this.line(line));
    rl.on('close', () => this.end());
    input.on('error', () => rl.close());
  }

  /** One line of input (exposed for tests). */
  line(text: string): void {
    if (!text.trim()) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.opts.warn(`ignoring a stdin line that is not JSON: ${text.slice(0, 80)}`);
      return;
    }
    const initialize = isObject(msg) && msg.type === 'control_request' && isObject(msg.request) && msg.request.subtype === 'initialize';
    // The first initialize is the session's: kept before anything else reads the session.
    if (initialize && !this.session.init) this.session.init = (msg as { request: InitializeRequest }).request;
    if (this.session.channel.receive(msg)) {
      if (initialize) this.markStarted();
      return;
    }
    const type = isObject(msg) ? String(msg.type) : typeof msg;
    if (isObject(msg) && msg.type === 'user') return this.user(msg);
    if (IGNORED.has(type) || this.warned.has(type)) return;
    this.warned.add(type);
    this.opts.warn(`ignoring stdin messages of type "${type}": wicket reads user messages and control requests`);
  }

  /** The end of input: no more turns; requests waiting for an answer from the SDK fail (fail-closed). */
  end(): void {
    this.turns.close();
    this.session.channel.close('the input ended');
    this.markStarted();
  }

  private user(msg: Record<string, unknown>): void {
    const message = isObject(msg.message) ? msg.message : undefined;
    const content = message?.content ?? msg.content;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      this.opts.warn('ignoring a user message without content');
      return;
    }
    const uuid = typeof msg.uuid === 'string' && msg.uuid ? msg.uuid : randomUuid();
    this.turns.push({ content: content as string | ContentBlock[], uuid, ...(msg.client_composed === true ? { composed: true } : {}) });
    this.markStarted();
  }
}
