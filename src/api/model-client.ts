/**
 * The model client: one streamed Messages API request, with retries that never show text twice and
 * never run a tool twice. The SDK decodes the stream and types the errors; the request goes over
 * Node's http client (http-transport.ts) to Anthropic's API, or through a cloud provider's client
 * (providers/), and the retries are ours (visible as `retry` events) whichever it is. A request
 * refused for its credentials is tried once more when the transport could renew them (the
 * apiKeyHelper run again, a cloud's refresh command).
 */
import { APIConnectionError, APIError } from '@anthropic-ai/sdk/core/error';
import type { ApiMessage, ContentBlock } from '../base/events.js';
import { FatalError, errorMessage, type ApiErrorBody } from '../base/errors.js';
import { baseURLProblem } from './http-transport.js';
import type { ApiKeyHelper } from './key-helper.js';
import { ApiTimeoutError, type ApiLimits } from './limits.js';
import { withoutCacheMarks } from './prompt-caching.js';
import { MessageAccumulator, type CompletedToolUse } from './message-accumulator.js';
import { awaitWithNotices, Notices } from './notices.js';
import { isRetryableStatus, parseRetryAfter, retryDelay, sleep, type RetryPolicy } from './retry.js';
import { firstPartyTransport, type ModelTransport, type TransportInfo } from './transport.js';
import type { Usage } from '../base/usage.js';

export interface ApiTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: { type: 'ephemeral' };
  /** Left out of the prompt until a `tool_reference` in a tool result loads it (tool search). */
  defer_loading?: boolean;
}

export interface ModelRequest {
  model: string;
  system: Array<{ type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }>;
  messages: ApiMessage[];
  tools: ApiTool[];
  maxTokens: number;
  /** Extended thinking, with this budget of tokens (max_tokens is raised above it as needed). */
  thinkingBudget?: number;
  /** output_config.effort; left out when undefined (the caller checks that the model takes it). */
  effort?: string;
  /** Models to switch to, in order, when `model` keeps answering "overloaded" (--fallback-model). */
  fallbackModels?: readonly string[];
  /** Betas the request needs (`anthropic-beta`), besides the one thinking adds. */
  betas?: readonly string[];
  /** Tools the API runs itself (`{ type: 'web_search_20250305', … }`), sent after `tools`. */
  serverTools?: ReadonlyArray<Record<string, unknown>>;
  /** Set by the client: whether a request to this model goes without cache marks. */
  cachingOff?: (model: string) => boolean;
}

/** Overloaded answers in a row before the request moves to the next fallback model. */
const OVERLOADED_BEFORE_FALLBACK = 3;

export type ClientEvent =
  | { type: 'raw'; event: unknown }
  /** `restart`: a retry's text differs from what was shown; `text` is all of it, to show instead. */
  | { type: 'text'; text: string; restart?: boolean }
  | { type: 'thinking'; text: string }
  | { type: 'tool_use'; toolUse: CompletedToolUse }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; status?: number; error: string }
  /** The model stayed overloaded: this request, and the caller's next ones, go to `model`. */
  | { type: 'fallback'; from: string; model: string; error: string }
  /** A line a credential command printed while the request waited for it (a sign-in link, a code). */
  | { type: 'notice'; text: string };

export interface FinalMessage {
  id: string;
  model: string;
  content: ContentBlock[];
  stopReason: string | null;
  usage: Usage;
  /** True when the stream dropped after tools had started and the message was cut to its complete blocks. */
  truncated: boolean;
  /** Searches the API's web_search tool ran (billed apart from the tokens). */
  webSearchRequests?: number;
}

export interface ModelClient {
  stream(req: ModelRequest, signal: AbortSignal): AsyncGenerator<ClientEvent, FinalMessage, void>;
  /** Which service, region and credentials the requests use (absent on test doubles). */
  describe?(): TransportInfo;
}

export interface ClientConfig {
  apiKey?: string;
  authToken?: string;
  baseURL?: string;
  retry: RetryPolicy;
  /** The idle and whole-request limits of each request (limits.ts); defaults for what is missing. */
  limits?: Partial<ApiLimits>;
  userAgent?: string;
  /** Extra request headers (ANTHROPIC_CUSTOM_HEADERS). */
  headers?: Record<string, string>;
  /** Whether a request to this model goes without cache marks (DISABLE_PROMPT_CACHING…). */
  cachingOff?: (model: string) => boolean;
  /** The apiKeyHelper setting, used when neither ANTHROPIC_AUTH_TOKEN nor ANTHROPIC_API_KEY is set. */
  keyHelper?: ApiKeyHelper;
  /** A cloud provider's transport (providers/) instead of Anthropic's API. */
  transport?: ModelTransport;
}

export function createModelClient(config: ClientConfig): ModelClient {
  const transport = config.transport ?? anthropicTransport(config);
  const cachingOff = config.cachingOff;
  return {
    stream: (req, signal) => streamWithRetry(transport, config.retry, cachingOff ? { ...req, cachingOff } : req, signal),
    describe: () => transport.describe(),
  };
}

function anthropicTransport(config: ClientConfig): ModelTransport {
  if (!config.apiKey && !config.authToken && !config.keyHelper) {
    throw new FatalError('auth', 'no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or an apiKeyHelper in the settings)');
  }
  const problem = baseURLProblem(config.baseURL);
  if (problem) throw new FatalError('config', problem);
  const { apiKey, authToken, baseURL, limits, userAgent, headers } = config;
  return firstPartyTransport({ apiKey, authToken, baseURL, limits, userAgent, headers }, apiKey || authToken ? undefined : config.keyHelper);
}

async function* streamWithRetry(
  transport: ModelTransport,
  policy: RetryPolicy,
  req: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ClientEvent, FinalMessage, void> {
  const shown: ShownText = { text: '', seen: 0, own: false };
  let model = req.model;
  const fallbacks = [...(req.fallbackModels ?? [])].filter((m) => m !== model);
  let overloaded = 0;
  const notices = new Notices();
  let renewed = false;
  for (let attempt = 0; ; attempt++) {
    const acc = new MessageAccumulator();
    shown.seen = 0;
    shown.own = false;
    let toolsStarted = 0;
    try {
      const thinking = req.thinkingBudget && req.thinkingBudget >= 1024 ? req.thinkingBudget : undefined;
      const full = {
        model,
        // With thinking on, max_tokens must exceed the thinking budget and leave room for the answer.
        max_tokens: thinking ? Math.max(req.maxTokens, thinking + 8000) : req.maxTokens,
        system: req.system,
        messages: req.messages,
        ...(req.tools.length || req.serverTools?.length ? { tools: [...req.tools, ...(req.serverTools ?? [])] } : {}),
        ...(thinking ? { thinking: { type: 'enabled', budget_tokens: thinking } } : {}),
        ...(req.effort ? { output_config: { effort: req.effort } } : {}),
        stream: true,
      };
      const body = req.cachingOff?.(model) ? withoutCacheMarks(full) : full;
      // Thinking between tool calls needs the interleaved-thinking beta.
      const betas = [...(thinking && req.tools.length ? ['interleaved-thinking-2025-05-14'] : []), ...(req.betas ?? [])];
      const stream = yield* awaitWithNotices(transport.send(body, signal, betas, notices.push), notices);
      for await (const event of abortable(stream as AsyncIterable<any>, signal)) {
        const out = acc.push(event);
        yield { type: 'raw', event };
        if (out.text !== undefined) {
          // After a retry, what the caller has already shown is not sent again.
          const fresh = freshText(out.text, shown);
          if (fresh) yield fresh;
        }
        if (out.thinking) yield { type: 'thinking', text: out.thinking };
        if (out.toolUse) {
          toolsStarted++;
          yield { type: 'tool_use', toolUse: out.toolUse };
        }
      }
      if (!acc.stopReason && !signal.aborted) throw new StreamCutError();
      const shorter = shorterText(shown);
      if (shorter) yield shorter;
      return finalOf(acc, false);
    } catch (err) {
      if (signal.aborted) throw err;
      // A credentials problem a person must fix (a failing key helper, no cloud credentials).
      if (err instanceof FatalError) throw err;
      if (toolsStarted > 0) {
        // Tools already ran from this stream: keep the complete blocks instead of asking again.
        const shorter = shorterText(shown);
        if (shorter) yield shorter;
        return finalOf(acc, true);
      }
      // Refused credentials are renewed once per request, and the request sent again at once.
      if (!renewed && transport.renewCredentials) {
        renewed = yield* awaitWithNotices(transport.renewCredentials(err, signal, notices.push), notices);
        if (renewed) {
          attempt--;
          continue;
        }
      }
      const status = statusOf(err);
      overloaded = isOverloaded(err) ? overloaded + 1 : 0;
      if (overloaded >= OVERLOADED_BEFORE_FALLBACK && fallbacks.length) {
        const from = model;
        model = fallbacks.shift()!;
        overloaded = 0;
        attempt = -1;
        yield { type: 'fallback', from, model, error: describeError(err) };
        continue;
      }
      if (!isRetryableStatus(status) || attempt >= policy.maxRetries) throw toFatal(err, attempt, transport.describe());
      const delayMs = retryDelay(attempt + 1, policy, parseRetryAfter(headersOf(err)));
      yield { type: 'retry', attempt: attempt + 1, maxRetries: policy.maxRetries, delayMs, status, error: describeError(err) };
      await sleep(delayMs, signal);
    }
  }
}

/**
 * Iterates a stream, but gives up at once when `signal` aborts: a server that stops sending must not
 * keep a pending read alive after the person pressed Esc.
 */
async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    for (;;) {
      const step = await Promise.race([it.next(), aborted]);
      if (step.done) return;
      yield step.value;
    }
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    void it.return?.()?.catch?.(() => {});
  }
}

class StreamCutError extends Error {
  constructor() {
    super('the connection closed before the response was complete');
  }
}

/** The text the caller has shown for this request, and how far the current attempt has come. */
interface ShownText {
  text: string;
  /** Characters of text the current attempt has streamed. */
  seen: number;
  /** The current attempt's text has departed from what was shown: it is now what is shown. */
  own: boolean;
}

/**
 * What of an attempt's next piece of text is new to the caller: nothing while a retry repeats
 * what was shown, the rest once it goes past it; when it says something else, the whole of the
 * attempt's text so far, marked `restart` (the caller replaces what it showed).
 */
function freshText(piece: string, shown: ShownText): Extract<ClientEvent, { type: 'text' }> | undefined {
  const start = shown.seen;
  shown.seen += piece.length;
  if (shown.own) {
    shown.text += piece;
    return { type: 'text', text: piece };
  }
  const before = shown.text.slice(start, start + piece.length);
  if (piece.startsWith(before)) {
    const rest = piece.slice(before.length);
    if (!rest) return undefined;
    shown.text += rest;
    return { type: 'text', text: rest };
  }
  shown.own = true;
  shown.text = shown.text.slice(0, start) + piece;
  return { type: 'text', text: shown.text, restart: true };
}

/** When an attempt ends having said less than was shown, its text replaces what was shown. */
function shorterText(shown: ShownText): Extract<ClientEvent, { type: 'text' }> | undefined {
  if (shown.own || shown.seen >= shown.text.length) return undefined;
  shown.text = shown.text.slice(0, shown.seen);
  return { type: 'text', text: shown.text, restart: true };
}

function finalOf(acc: MessageAccumulator, truncated: boolean): FinalMessage {
  const content = acc.content(truncated);
  const hasTools = content.some((b) => b.type === 'tool_use');
  return {
    id: acc.id,
    model: acc.model,
    content,
    stopReason: truncated ? (hasTools ? 'tool_use' : 'end_turn') : acc.stopReason,
    usage: acc.usage,
    truncated,
    ...(acc.webSearchRequests ? { webSearchRequests: acc.webSearchRequests } : {}),
  };
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof StreamCutError) return undefined;
  if (err instanceof APIConnectionError) return undefined;
  if (err instanceof APIError) return err.status ?? undefined;
  // Errors thrown while reading the body (socket reset, SSE parse on a cut stream) are connection failures.
  return undefined;
}

/** 529, or an `overloaded_error` event in the stream. */
function isOverloaded(err: unknown): boolean {
  if (!(err instanceof APIError)) return false;
  return err.status === 529 || (err.error as { error?: { type?: string } } | undefined)?.error?.type === 'overloaded_error' || /overloaded/i.test(err.message);
}

function headersOf(err: unknown): { get(name: string): string | null } | undefined {
  if (err instanceof APIError && err.headers) return err.headers as unknown as Headers;
  return undefined;
}

function describeError(err: unknown): string {
  if (err instanceof APIError) {
    const msg = err.apiMessage ?? err.message;
    return err.status ? `${err.status} ${msg}` : msg;
  }
  return errorMessage(err);
}

/** One clear sentence for the person, never a stack trace. */
function toFatal(err: unknown, attempts: number, via: TransportInfo): FatalError {
  const status = statusOf(err);
  const detail = err instanceof APIError ? (err.apiMessage ?? err.message) : errorMessage(err);
  const api = err instanceof APIError && status !== undefined ? apiBody(err, detail) : undefined;
  const firstParty = via.provider === 'Anthropic API';
  if (status === 401) return new FatalError('auth', `authentication failed (401): check the credentials from ${via.credentials} (${detail})`, 401, api);
  if (status === 403) return new FatalError('auth', `permission denied by ${firstParty ? 'the API' : via.provider} (403): ${detail}`, 403, api);
  if (status === 404) {
    const where = firstParty ? 'ANTHROPIC_BASE_URL' : `that ${via.provider} offers it${via.region ? ` in ${via.region}` : ''}`;
    return new FatalError('not_found', `not found (404): check the model name and ${where} (${detail})`, 404, api);
  }
  if (status === 400 || status === 413 || status === 422)
    return new FatalError('bad_request', `the API rejected the request (${status}): ${detail}`, status, api);
  // A silent server: the limit that was passed, and how many times the request was tried.
  if (err instanceof ApiTimeoutError) return new FatalError('api', `${err.message}; tried ${attempts + 1} time${attempts ? 's' : ''}`);
  const tries = attempts > 0 ? ` after ${attempts + 1} attempts` : '';
  if (status === undefined) return new FatalError('api', `could not reach the API${tries}: ${detail}`);
  return new FatalError('api', `the API failed${tries} (${status}): ${detail}`, status, api);
}

/** The error response's own type and message (`{"type":"error","error":{"type":…,"message":…}}`). */
function apiBody(err: APIError, detail: string): ApiErrorBody {
  const type = (err.error as { error?: { type?: unknown } } | undefined)?.error?.type;
  return { ...(typeof type === 'string' ? { type } : {}), message: detail };
}
