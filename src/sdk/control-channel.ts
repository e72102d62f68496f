/**
 * The control channel of the Agent SDK protocol: `control_request` / `control_response` /
 * `control_cancel_request` lines, in both directions, over the NDJSON of stdin and stdout.
 *
 * wicket → SDK: `request()` writes a request and resolves with the success payload.
 * SDK → wicket: `receive()` takes each parsed stdin line; a request goes to the handler of its
 * subtype, which runs on its own (the reader never waits for it), and its value or error is written
 * back with the same `request_id`. A subtype without a handler is answered with an error, never
 * left unanswered: the SDK method awaiting it would hang.
 */
import { errorMessage } from '../base/errors.js';
import { randomUuid } from '../base/ids.js';

export type ControlPayload = Record<string, unknown>;

export type ControlHandler = (request: ControlPayload, signal: AbortSignal) => Promise<ControlPayload | undefined> | ControlPayload | undefined;

/** A refusal with Claude Code's `error_code` (snake_case), e.g. `bypass_not_launched`. */
export class ControlError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

export interface ControlChannelOptions {
  /** Writes one message as one line on stdout. */
  send: (message: ControlPayload) => void;
  /** Request ids of wicket's own requests (UUIDs, as Claude Code's). */
  newId?: () => string;
}

interface Outgoing {
  subtype: string;
  resolve: (payload: ControlPayload) => void;
  reject: (err: Error) => void;
  detach: () => void;
}

export class ControlChannel {
  private readonly outgoing = new Map<string, Outgoing>();
  private readonly incoming = new Map<string, AbortController>();
  private readonly handlers = new Map<string, ControlHandler>();
  private closedReason: string | undefined;
  private ready: Promise<void> | undefined;

  constructor(private readonly opts: ControlChannelOptions) {}

  /** CLI → SDK control_request; resolves with the success response's `response` payload, rejects with Error(error)
   *  on an error response; aborting `signal` sends control_cancel_request and rejects. */
  request(subtype: string, body: ControlPayload, opts: { signal?: AbortSignal } = {}): Promise<ControlPayload> {
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.closedReason !== undefined) return Promise.reject(new Error(`the SDK host cannot be asked (${this.closedReason})`));
    const id = (this.opts.newId ?? randomUuid)();
    return new Promise<ControlPayload>((resolve, reject) => {
      const onAbort = () => {
        if (!this.outgoing.has(id)) return;
        this.outgoing.delete(id);
        this.opts.send({ type: 'control_cancel_request', request_id: id });
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const detach = () => signal?.removeEventListener('abort', onAbort);
      this.outgoing.set(id, { subtype, resolve, reject, detach });
      this.opts.send({ type: 'control_request', request_id: id, request: { ...body, subtype } });
    });
  }

  /** SDK → CLI control_requests of this subtype are answered by fn: its value is the success payload ({} when undefined),
   *  a throw becomes an error response. Never blocks reading stdin. */
  onRequest(subtype: string, fn: ControlHandler): void {
    this.handlers.set(subtype, fn);
  }

  /**
   * Requests whose handler is not registered yet wait for `ready` (the session is being set up), then
   * are answered, or refused when still nobody answers them.
   */
  holdUntil(ready: Promise<unknown>): void {
    const held = ready.then(
      () => undefined,
      () => undefined,
    );
    this.ready = held;
    void held.then(() => {
      if (this.ready === held) this.ready = undefined;
    });
  }

  /** Whether a handler answers this subtype. */
  handles(subtype: string): boolean {
    return this.handlers.has(subtype);
  }

  /** Cancels every outstanding CLI → SDK request (interrupt, end of input). */
  cancelAll(reason = 'cancelled'): void {
    for (const [id, out] of [...this.outgoing]) {
      this.outgoing.delete(id);
      out.detach();
      this.opts.send({ type: 'control_cancel_request', request_id: id });
      out.reject(new Error(`the request to the SDK host (${out.subtype}) was cancelled: ${reason}`));
    }
  }

  /** Whether the input ended: a request can no longer reach the SDK host (the guards that need one fail closed). */
  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** How many CLI → SDK requests await their answer. */
  get pending(): number {
    return this.outgoing.size;
  }

  /**
   * Stdin ended: nothing can answer any more. Outstanding requests fail (the SDK is gone, so no
   * cancel is written) and later ones fail at once; SDK requests still running are aborted.
   */
  close(reason = 'the input ended'): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const [id, out] of [...this.outgoing]) {
      this.outgoing.delete(id);
      out.detach();
      out.reject(new Error(`the SDK host did not answer ${out.subtype}: ${reason}`));
    }
    for (const ctl of this.incoming.values()) ctl.abort(new Error(reason));
    this.incoming.clear();
  }

  /**
   * One parsed stdin line. Returns true when it was a control message (taken here), false for
   * anything else (a user message…), which the caller handles.
   */
  receive(message: unknown): boolean {
    if (!isObject(message)) return false;
    switch (message.type) {
      case 'control_response':
        this.onResponse(message.response);
        return true;
      case 'control_request':
        this.onIncoming(message.request_id, message.request);
        return true;
      case 'control_cancel_request':
        if (typeof message.request_id === 'string') this.cancelIncoming(message.request_id);
        return true;
      default:
        return false;
    }
  }

  private onResponse(response: unknown): void {
    if (!isObject(response) || typeof response.request_id !== 'string') return;
    const out = this.outgoing.get(response.request_id);
    // A late answer to a request already cancelled (or never made) is dropped.
    if (!out) return;
    this.outgoing.delete(response.request_id);
    out.detach();
    if (response.subtype === 'success') out.resolve(isObject(response.response) ? response.response : {});
    else out.reject(new Error(typeof response.error === 'string' && response.error ? response.error : `the SDK host refused ${out.subtype}`));
  }

  private onIncoming(requestId: unknown, request: unknown): void {
    if (typeof requestId !== 'string' || !requestId) return; // nothing to answer to
    if (!isObject(request) || typeof request.subtype !== 'string') {
      this.answerError(requestId, new ControlError('Invalid control request: it has no subtype', 'invalid_request'));
      return;
    }
    const subtype = request.subtype;
    const ready = this.handlers.has(subtype) ? undefined : this.ready;
    if (!ready && !this.handlers.has(subtype)) {
      this.answerError(requestId, unsupported(subtype));
      return;
    }
    if (this.incoming.has(requestId)) return; // the same request delivered twice
    const ctl = new AbortController();
    this.incoming.set(requestId, ctl);
    // Run apart from the reader: a handler that waits never holds up the next line.
    void Promise.resolve(ready)
      .then(() => {
        const handler = this.handlers.get(subtype);
        if (!handler) throw unsupported(subtype);
        return handler(request, ctl.signal);
      })
      .then(
        (payload) => this.finishIncoming(requestId, ctl, () => this.opts.send(success(requestId, payload ?? {}))),
        (err: unknown) => this.finishIncoming(requestId, ctl, () => this.answerError(requestId, err)),
      );
  }

  private finishIncoming(requestId: string, ctl: AbortController, answer: () => void): void {
    // The SDK withdrew it (control_cancel_request): no answer goes out.
    if (ctl.signal.aborted) return;
    this.incoming.delete(requestId);
    answer();
  }

  private cancelIncoming(requestId: string): void {
    const ctl = this.incoming.get(requestId);
    if (!ctl) return;
    this.incoming.delete(requestId);
    ctl.abort(new Error('the SDK host cancelled the request'));
  }

  private answerError(requestId: string, err: unknown): void {
    const code = err instanceof ControlError ? err.code : undefined;
    this.opts.send({
      type: 'control_response',
      response: { subtype: 'error', request_id: requestId, error: errorMessage(err) || 'request failed', ...(code ? { error_code: code } : {}) },
    });
  }
}

function unsupported(subtype: string): ControlError {
  return new ControlError(`Unsupported control request subtype: ${subtype}`, 'unsupported_request');
}

function success(requestId: string, payload: ControlPayload): ControlPayload {
  return { type: 'control_response', response: { subtype: 'success', request_id: requestId, response: payload } };
}

function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new Error(typeof r === 'string' && r ? r : 'the request to the SDK host was aborted');
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
