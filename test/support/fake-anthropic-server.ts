/**
 * A fake Anthropic Messages API on `node:http` (127.0.0.1, port 0) that replaces the real model in tests.
 *
 * - `POST /v1/messages` streams (SSE, `stream: true`) or answers with one JSON Message.
 *   `POST /v1/messages/count_tokens` answers `{ input_tokens }` and consumes no scripted reply.
 * - Each messages request consumes the next scripted reply, in order (`server.script(...)` appends).
 *   When the script is exhausted the server answers with a plain text "done" turn by default, so an
 *   agent loop always ends cleanly; `startFakeAnthropic({ whenExhausted: 'fail' })` answers HTTP 400
 *   and records a violation instead, and `whenExhausted: reply()...` picks another fallback turn.
 *   `server.unscripted` counts requests answered by the fallback.
 * - Every request is recorded (`server.requests`) and checked against the Messages API's rules
 *   (`findViolations`, in messages-api-rules.ts). A request that breaks them gets HTTP 400 `invalid_request_error`, as from the
 *   real API, is recorded in `server.violations`, and consumes no scripted reply.
 * - Without an `x-api-key` or `authorization` header the answer is 401 (`requireAuth: false` turns this off).
 * - A turn may go silent where a broken server does: `hangBeforeHeaders()`, `hangAfterHeaders()`,
 *   `hang()` after some events, `toolUse(…, { stallMidInput: true })`, or `trickle('ping' | 'comment', ms)`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Anthropic from '@anthropic-ai/sdk';
import { findViolations } from './messages-api-rules.js';

export { findViolations };

export interface RequestBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: unknown;
  tools?: Array<{ name: string; [key: string]: unknown }>;
  messages?: Anthropic.MessageParam[];
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** 0-based arrival order over all requests. */
  index: number;
  method: string;
  /** URL path without the query string, e.g. `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: RequestBody;
}

export interface UsageNumbers {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface HttpErrorOptions {
  /** Anthropic error type; derived from the status when absent (529 → overloaded_error, …). */
  type?: string;
  message?: string;
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number;
  headers?: Record<string, string>;
}

export type ReplyFn = (req: RecordedRequest) => ReplyBuilder | string | Promise<ReplyBuilder | string>;

type Step =
  | { kind: 'text'; text: string; newBlock: boolean }
  | { kind: 'thinking'; text: string; signature?: string }
  | { kind: 'tool_use'; name: string; input: unknown; id?: string; stallMidInput?: boolean; inputDelayMs?: number }
  | { kind: 'web_search'; query: string; results: WebSearchResult[] | { error_code: string } }
  | { kind: 'delay'; ms: number }
  | { kind: 'trickle'; what: 'ping' | 'comment'; everyMs: number; forMs?: number }
  | { kind: 'drop' }
  | { kind: 'hang' }
  | { kind: 'stream_error'; type: string; message: string };

/** One result of the API's web_search tool. */
export interface WebSearchResult {
  title: string;
  url: string;
  page_age?: string;
}

/** One assistant turn (or failure), built fluently. Steps run in the order they are added. */
export class ReplyBuilder {
  readonly steps: Step[] = [];
  usageOverride: UsageNumbers = {};
  stopReasonOverride?: string;
  httpError?: { status: number } & HttpErrorOptions;
  /** Where the server goes silent instead of answering: before the status line, or after the headers. */
  silence?: 'before-headers' | 'after-headers';
  constructor(readonly resolver?: ReplyFn) {}

  /** A text delta; continues the open text block unless `newBlock` is set. */
  text(text: string, opts: { newBlock?: boolean } = {}): this {
    return this.push({ kind: 'text', text, newBlock: opts.newBlock ?? false });
  }
  /** A thinking block: `thinking_delta`, then a `signature_delta` before it stops. */
  thinking(text: string, signature?: string): this {
    return this.push({ kind: 'thinking', text, signature });
  }
  /**
   * A tool_use block; its JSON input streams as several `input_json_delta` chunks. Id: `toolu_01…`.
   * `stallMidInput`: only the block's start and the first piece of its input are sent, then nothing.
   * `inputDelayMs`: the block starts, then its input comes this long after (a model slowly writing it).
   */
  toolUse(name: string, input: unknown, opts: { id?: string; stallMidInput?: boolean; inputDelayMs?: number } = {}): this {
    return this.push({ kind: 'tool_use', name, input, id: opts.id, stallMidInput: opts.stallMidInput, inputDelayMs: opts.inputDelayMs });
  }
  /**
   * A search by the API's server-side web_search tool, as the real API streams it: a `server_tool_use`
   * block (its input as JSON deltas), then a `web_search_tool_result` block with the results (or an
   * error object); the message's usage counts it in `server_tool_use.web_search_requests`.
   */
  webSearch(query: string, results: WebSearchResult[] | { error_code: string }): this {
    return this.push({ kind: 'web_search', query, results });
  }
  /** Read the request, then send nothing at all: no status line, no headers (until the client gives up). */
  hangBeforeHeaders(): this {
    this.silence = 'before-headers';
    return this;
  }
  /** Send the 200 status and the event-stream headers, then nothing (until the client gives up). */
  hangAfterHeaders(): this {
    this.silence = 'after-headers';
    return this;
  }
  /**
   * From this point, send a `ping` event, or an SSE comment line (`: keep-alive`, which is no event
   * at all), every `everyMs`: for `forMs` and then go on with the next steps, or (without it) forever,
   * until the client gives up.
   */
  trickle(what: 'ping' | 'comment', everyMs: number, opts: { forMs?: number } = {}): this {
    return this.push({ kind: 'trickle', what, everyMs, forMs: opts.forMs });
  }
  /** Wait before the next step (before the response headers when first). */
  delay(ms: number): this {
    return this.push({ kind: 'delay', ms });
  }
  /** Destroy the socket at this point (before any header when first). */
  dropConnection(): this {
    return this.push({ kind: 'drop' });
  }
  /** Never answer further (until the client aborts or the server closes). */
  hang(): this {
    return this.push({ kind: 'hang' });
  }
  /** An SSE `error` event at this point, then the stream ends (as the real API does on overload). */
  streamError(type = 'overloaded_error', message = 'Overloaded'): this {
    return this.push({ kind: 'stream_error', type, message });
  }
  /** Answer with this HTTP status and an Anthropic error body instead of a turn. */
  error(status: number, opts: HttpErrorOptions = {}): this {
    this.httpError = { status, ...opts };
    return this;
  }
  usage(usage: UsageNumbers): this {
    this.usageOverride = { ...this.usageOverride, ...usage };
    return this;
  }
  stopReason(reason: Anthropic.StopReason | string): this {
    this.stopReasonOverride = reason;
    return this;
  }
  private push(step: Step): this {
    this.steps.push(step);
    return this;
  }
}

/** `reply()` starts a turn; `reply(req => …)` decides the turn from the request when it arrives. */
export function reply(fn?: ReplyFn): ReplyBuilder {
  return new ReplyBuilder(fn);
}

export interface FakeAnthropicOptions {
  /** Answer 401 when neither `x-api-key` nor `authorization` is sent. Default true. */
  requireAuth?: boolean;
  /** What an unscripted request gets: 'done' (default: a text turn "done"), 'fail', or a turn. */
  whenExhausted?: 'done' | 'fail' | ReplyBuilder;
}

export interface FakeAnthropic {
  /** Base URL for ANTHROPIC_BASE_URL / the SDK's `baseURL` (no `/v1`). */
  url: string;
  requests: RecordedRequest[];
  violations: string[];
  /** Requests answered by the `whenExhausted` fallback. */
  unscripted: number;
  script(...turns: Array<ReplyBuilder | string>): FakeAnthropic;
  /** Scripted replies not consumed yet. */
  pending(): number;
  /** Requests to `POST /v1/messages` only. */
  messageRequests(): RecordedRequest[];
  lastRequest(): RecordedRequest | undefined;
  assertNoViolations(): void;
  /** Throws when scripted replies remain unconsumed. */
  assertScriptConsumed(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Turning a reply into the real event sequence
// ---------------------------------------------------------------------------------------------

type Action =
  | { type: 'event'; name: string; data: Record<string, unknown> }
  | { type: 'delay'; ms: number }
  | { type: 'trickle'; what: 'ping' | 'comment'; everyMs: number; forMs?: number }
  | { type: 'drop' }
  | { type: 'hang' }
  | { type: 'end' };

type OutBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown };

interface Plan {
  actions: Action[];
  /** The Message the events add up to (the non-streaming answer). */
  message: Record<string, unknown>;
}

interface PlanContext {
  model: string;
  inputTokens: number;
  nextId: (prefix: string) => string;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Split a string into `parts` pieces (fewer when it is short), as the API streams JSON input. */
function chunk(s: string, parts = 3): string[] {
  const size = Math.max(1, Math.ceil(s.length / parts));
  const out: string[] = [];
  for (let k = 0; k < s.length; k += size) out.push(s.slice(k, k + size));
  return out;
}

function inputUsage(turn: ReplyBuilder, ctx: PlanContext) {
  const u = turn.usageOverride;
  return {
    input_tokens: u.input_tokens ?? ctx.inputTokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
  };
}

function outputTokens(content: OutBlock[]): number {
  const chars = content.reduce(
    (n, b) =>
      n +
      (b.type === 'text'
        ? b.text.length
        : b.type === 'thinking'
          ? b.thinking.length
          : b.type === 'web_search_tool_result'
            ? 0
            : JSON.stringify(b.input).length),
    0,
  );
  return Math.max(1, Math.ceil(chars / 4));
}

/** The event sequence of one turn: message_start, ping, blocks (start/deltas/stop), message_delta, message_stop. */
function plan(turn: ReplyBuilder, ctx: PlanContext): Plan {
  const actions: Action[] = [];
  const content: OutBlock[] = [];
  const ev = (name: string, data: Record<string, unknown>) => actions.push({ type: 'event', name, data: { type: name, ...data } });
  const message: Record<string, unknown> = {
    id: ctx.nextId('msg_01'),
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...inputUsage(turn, ctx), output_tokens: 1, service_tier: 'standard' },
  };
  ev('message_start', { message });
  ev('ping', {});
  let cur: OutBlock | undefined;
  let signature: string | undefined;
  let searches = 0;
  const close = () => {
    if (cur?.type === 'thinking') {
      cur.signature = signature ?? `Fake${ctx.nextId('sig')}==`;
      ev('content_block_delta', { index: content.length - 1, delta: { type: 'signature_delta', signature: cur.signature } });
    }
    if (cur) ev('content_block_stop', { index: content.length - 1 });
    cur = undefined;
    signature = undefined;
  };
  const start = <B extends OutBlock>(block: B): B => {
    close();
    content.push(block);
    ev('content_block_start', { index: content.length - 1, content_block: { ...block } });
    cur = block;
    return block;
  };
  const delta = (d: Record<string, unknown>) => ev('content_block_delta', { index: content.length - 1, delta: d });
  for (const s of turn.steps) {
    if (s.kind === 'text') {
      const b = cur?.type === 'text' && !s.newBlock ? cur : start({ type: 'text', text: '' });
      b.text += s.text;
      delta({ type: 'text_delta', text: s.text });
    } else if (s.kind === 'thinking') {
      const b = cur?.type === 'thinking' ? cur : start({ type: 'thinking', thinking: '', signature: '' });
      signature = s.signature ?? signature;
      b.thinking += s.text;
      delta({ type: 'thinking_delta', thinking: s.text });
    } else if (s.kind === 'tool_use') {
      const b = start({ type: 'tool_use', id: s.id ?? ctx.nextId('toolu_01'), name: s.name, input: {} });
      b.input = s.input ?? {};
      const parts = ['', ...chunk(JSON.stringify(b.input))];
      for (const [i, part] of (s.stallMidInput ? parts.slice(0, 2) : parts).entries()) {
        if (i === 1 && s.inputDelayMs) actions.push({ type: 'delay', ms: s.inputDelayMs });
        delta({ type: 'input_json_delta', partial_json: part });
      }
      if (s.stallMidInput) {
        actions.push({ type: 'hang' });
        return { actions, message };
      }
      close();
    } else if (s.kind === 'web_search') {
      const id = ctx.nextId('srvtoolu_01');
      const use = start({ type: 'server_tool_use', id, name: 'web_search', input: {} });
      use.input = { query: s.query };
      for (const part of ['', ...chunk(JSON.stringify(use.input))]) delta({ type: 'input_json_delta', partial_json: part });
      start({
        type: 'web_search_tool_result',
        tool_use_id: id,
        content: Array.isArray(s.results)
          ? s.results.map((r) => ({ type: 'web_search_result', encrypted_content: 'fake', ...r }))
          : { type: 'web_search_tool_result_error', ...s.results },
      });
      close();
      searches++;
    } else if (s.kind === 'delay') {
      actions.push({ type: 'delay', ms: s.ms });
    } else if (s.kind === 'trickle') {
      actions.push({ type: 'trickle', what: s.what, everyMs: s.everyMs, forMs: s.forMs });
      if (s.forMs === undefined) return { actions, message };
    } else if (s.kind === 'stream_error') {
      ev('error', { error: { type: s.type, message: s.message } });
      actions.push({ type: 'end' });
      return { actions, message };
    } else {
      actions.push({ type: s.kind });
      return { actions, message };
    }
  }
  close();
  const output_tokens = turn.usageOverride.output_tokens ?? outputTokens(content);
  const stop_reason = turn.stopReasonOverride ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const server = searches ? { server_tool_use: { web_search_requests: searches } } : {};
  ev('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens, ...server } });
  ev('message_stop', {});
  actions.push({ type: 'end' });
  return { actions, message: { ...message, content, stop_reason, usage: { ...(message.usage as object), output_tokens } } };
}

// ---------------------------------------------------------------------------------------------
// The HTTP server
// ---------------------------------------------------------------------------------------------

function sendError(res: ServerResponse, status: number, opts: HttpErrorOptions = {}): void {
  const type = opts.type ?? ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': `req_fake_${status}`, ...opts.headers };
  if (opts.retryAfter !== undefined) headers['retry-after'] = String(opts.retryAfter);
  res.writeHead(status, headers);
  res.end(JSON.stringify({ type: 'error', error: { type, message: opts.message ?? `fake ${type}` }, request_id: headers['request-id'] }));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue: ReplyBuilder[] = [];
  let counter = 0;
  let closing = false;
  let onClose!: () => void;
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const nextId = (prefix: string) => `${prefix}Fake${String(++counter).padStart(18, '0')}`;
  const sleep = (ms: number) => Promise.race([closed, new Promise<void>((r) => setTimeout(r, ms).unref())]);

  const fake: FakeAnthropic = {
    url: '',
    requests: [],
    violations: [],
    unscripted: 0,
    script(...turns) {
      queue.push(...turns.map((t) => (typeof t === 'string' ? reply().text(t) : t)));
      return fake;
    },
    pending: () => queue.length,
    messageRequests: () => fake.requests.filter((r) => r.path === '/v1/messages'),
    lastRequest: () => fake.requests.at(-1),
    assertNoViolations() {
      if (fake.violations.length > 0) {
        throw new Error(`Messages API rules broken (${fake.violations.length}):\n- ${fake.violations.join('\n- ')}`);
      }
    },
    assertScriptConsumed() {
      if (queue.length > 0) throw new Error(`${queue.length} scripted repl${queue.length === 1 ? 'y was' : 'ies were'} never requested`);
    },
    async close() {
      if (closing) return;
      closing = true;
      onClose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function nextTurn(rec: RecordedRequest): Promise<ReplyBuilder | undefined> {
    let turn = queue.shift();
    if (!turn) {
      fake.unscripted += 1;
      const fallback = options.whenExhausted ?? 'done';
      if (fallback === 'fail') return undefined;
      turn = fallback === 'done' ? reply().text('done') : fallback;
    }
    while (turn.resolver) {
      const out = await turn.resolver(rec);
      turn = typeof out === 'string' ? reply().text(out) : out;
    }
    return turn;
  }

  /** Sends a ping or a comment line every `everyMs`, for `forMs` or until the client or the server goes away. */
  async function trickle(res: ServerResponse, a: Extract<Action, { type: 'trickle' }>, alive: () => boolean): Promise<void> {
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': nextId('req_') });
    const frame = a.what === 'ping' ? `event: ping\ndata: {"type": "ping"}\n\n` : ': keep-alive\n\n';
    const until = a.forMs === undefined ? Infinity : Date.now() + a.forMs;
    while (alive() && !res.socket?.destroyed && Date.now() < until) {
      await new Promise<void>((resolve) => res.write(frame, () => resolve()));
      await sleep(a.everyMs);
    }
  }

  async function run(res: ServerResponse, { actions, message }: Plan, stream: boolean): Promise<void> {
    const alive = () => !closing && !res.destroyed;
    for (const a of actions) {
      if (!alive()) return;
      if (a.type === 'delay') await sleep(a.ms);
      else if (a.type === 'hang') return void (await closed);
      else if (a.type === 'trickle') {
        await trickle(res, a, alive);
        if (a.forMs === undefined) return;
      } else if (a.type === 'drop') return void res.socket?.destroy();
      else if (a.type === 'end') break;
      else if (stream) {
        if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': nextId('req_') });
        const frame = `event: ${a.name}\ndata: ${JSON.stringify(a.data)}\n\n`;
        await new Promise<void>((resolve) => res.write(frame, () => resolve()));
      } else if (a.name === 'error') {
        const err = a.data.error as { type: string; message: string };
        const status = Number(Object.entries(ERROR_TYPES).find(([, t]) => t === err.type)?.[0] ?? 500);
        return sendError(res, status, err);
      }
    }
    if (stream || !alive()) return void res.end();
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': nextId('req_') });
    res.end(JSON.stringify(message));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let body: RequestBody;
    try {
      body = raw === '' ? {} : (JSON.parse(raw) as RequestBody);
    } catch {
      return sendError(res, 400, { message: 'request body is not valid JSON' });
    }
    const rec: RecordedRequest = { index: fake.requests.length, method: req.method ?? 'GET', path, headers: req.headers, body };
    fake.requests.push(rec);
    const isCount = path === '/v1/messages/count_tokens';
    if (rec.method !== 'POST' || (path !== '/v1/messages' && !isCount)) return sendError(res, 404, { message: `no route ${rec.method} ${path}` });
    if (options.requireAuth !== false && !req.headers['x-api-key'] && !req.headers.authorization) {
      return sendError(res, 401, { message: 'x-api-key header is required' });
    }
    const betas = String(req.headers['anthropic-beta'] ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    const problems = findViolations(body, betas).filter((p) => !isCount || !p.startsWith('max_tokens'));
    if (problems.length > 0) {
      fake.violations.push(...problems.map((p) => `request #${rec.index}: ${p}`));
      return sendError(res, 400, { message: problems.join('; ') });
    }
    const inputTokens = Math.max(1, Math.ceil(JSON.stringify([body.system, body.tools, body.messages]).length / 4));
    if (isCount) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: inputTokens }));
    const turn = await nextTurn(rec);
    if (!turn) {
      fake.violations.push(`request #${rec.index}: unscripted request (the script was exhausted)`);
      return sendError(res, 400, { message: 'fake server: script exhausted' });
    }
    if (turn.httpError) return sendError(res, turn.httpError.status, turn.httpError);
    if (turn.silence === 'before-headers') return void (await closed);
    if (turn.silence === 'after-headers') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': nextId('req_') });
      res.flushHeaders();
      return void (await closed);
    }
    await run(res, plan(turn, { model: body.model ?? 'claude-sonnet-4-5', inputTokens, nextId }), body.stream === true);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      fake.violations.push(`fake server failed on ${req.method} ${req.url}: ${err instanceof Error ? err.stack : String(err)}`);
      if (!res.headersSent) sendError(res, 400, { message: `fake server failure: ${String(err)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
