/**
 * One page over HTTP with Node's fetch, bounded in every direction: a time limit for the whole
 * exchange, the caller's abort signal, a cap on the (decompressed) body read as a stream, and
 * redirects handled by hand — same-host ones followed (at most `maxRedirects`), a redirect to
 * another host returned to the caller, since that host has not passed the permission gate.
 * Network faults come back as a `failed` value with a sentence for the model; only the caller's
 * abort throws.
 */
import { isSameHost } from './url.js';

export const FETCH_TIMEOUT_MS = 30_000;
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
export const MAX_REDIRECTS = 10;
/** Error pages (4xx/5xx) are read only this far: enough for the message, not for a 100 MB error. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

const ACCEPT = 'text/markdown, text/html;q=0.9, text/plain;q=0.8, application/json;q=0.8, application/pdf;q=0.7, */*;q=0.5';

export interface FetchPageOptions {
  signal: AbortSignal;
  userAgent: string;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Checks the content type before the body is read; a message refuses the body unread. */
  refuseContentType?: (contentType: string) => string | undefined;
  /** The undici dispatcher for a URL (a proxy's), or undefined to connect directly. */
  dispatcherFor?: (url: URL) => Promise<unknown>;
}

export type FetchFailure = 'dns' | 'refused' | 'tls' | 'timeout' | 'reset' | 'network' | 'too_many_redirects' | 'bad_redirect' | 'unsupported_type';

export type FetchResult =
  | {
      kind: 'response';
      url: string;
      status: number;
      statusText: string;
      contentType: string;
      body: Uint8Array;
      /** The body was longer than the cap and was cut there. */
      truncated: boolean;
      redirects: number;
    }
  | { kind: 'redirect'; from: string; to: string; status: number }
  | { kind: 'failed'; reason: FetchFailure; message: string; url: string; status?: number; contentType?: string };

/** Thrown only when the caller's own signal aborted the fetch. */
export class FetchAbortedError extends Error {
  constructor() {
    super('The fetch was interrupted.');
    this.name = 'AbortError';
  }
}

export async function fetchPage(start: URL, opts: FetchPageOptions): Promise<FetchResult> {
  const timeoutMs = opts.timeoutMs ?? FETCH_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([opts.signal, timeout]);
  let url = start;
  try {
    for (let redirects = 0; ; redirects++) {
      const dispatcher = await opts.dispatcherFor?.(url);
      const init = { redirect: 'manual' as const, signal, headers: { 'user-agent': opts.userAgent, accept: ACCEPT }, ...(dispatcher ? { dispatcher } : {}) };
      const res = await fetch(url, init as RequestInit);
      const step = await handleResponse(res, url, redirects, opts);
      if (step.kind !== 'follow') return step;
      if (redirects + 1 > (opts.maxRedirects ?? MAX_REDIRECTS)) {
        return failed(
          'too_many_redirects',
          `Stopped after ${redirects + 1} redirects (the limit is ${opts.maxRedirects ?? MAX_REDIRECTS}); the page at ${start.href} redirects in a loop or too often.`,
          start,
        );
      }
      url = step.to;
    }
  } catch (err) {
    if (opts.signal.aborted) throw new FetchAbortedError();
    if (timeout.aborted)
      return failed('timeout', `No complete answer from ${url.host} within ${seconds(timeoutMs)}; the server is too slow or never finished sending.`, url);
    return describeNetworkError(err, url);
  }
}

type Step = FetchResult | { kind: 'follow'; to: URL };

async function handleResponse(res: Response, url: URL, redirects: number, opts: FetchPageOptions): Promise<Step> {
  if (res.status >= 300 && res.status < 400 && res.status !== 304) {
    await res.body?.cancel().catch(() => undefined);
    const location = res.headers.get('location');
    if (!location) return failed('bad_redirect', `${url.href} answered ${res.status} (a redirect) without a Location header.`, url, res.status);
    let to: URL;
    try {
      to = new URL(location, url);
    } catch {
      return failed('bad_redirect', `${url.href} redirects to "${location.slice(0, 200)}", which is not a valid URL.`, url, res.status);
    }
    if (to.protocol !== 'http:' && to.protocol !== 'https:') {
      return failed('bad_redirect', `${url.href} redirects to a ${to.protocol} URL, which WebFetch does not follow.`, url, res.status);
    }
    if (isSameHost(url, to)) return { kind: 'follow', to };
    return { kind: 'redirect', from: url.href, to: to.href, status: res.status };
  }
  const contentType = res.headers.get('content-type') ?? '';
  const refusal = res.status < 400 ? opts.refuseContentType?.(contentType) : undefined;
  if (refusal) {
    await res.body?.cancel().catch(() => undefined);
    return { ...failed('unsupported_type', refusal, url, res.status), contentType };
  }
  const cap = res.status >= 400 ? Math.min(MAX_ERROR_BODY_BYTES, opts.maxBytes ?? MAX_BODY_BYTES) : (opts.maxBytes ?? MAX_BODY_BYTES);
  const { body, truncated } = await readCapped(res, cap);
  return { kind: 'response', url: url.href, status: res.status, statusText: res.statusText, contentType, body, truncated, redirects };
}

/** Reads the body as a stream and stops at `cap` bytes (after decompression: a gzip bomb stops here too). */
export async function readCapped(res: Response, cap: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!res.body) return { body: new Uint8Array(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > cap) {
      chunks.push(value.subarray(0, cap - total));
      total = cap;
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  return { body: concat(chunks, total), truncated };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function failed(reason: FetchFailure, message: string, url: URL, status?: number): Extract<FetchResult, { kind: 'failed' }> {
  return { kind: 'failed', reason, message, url: url.href, ...(status !== undefined ? { status } : {}) };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|EPROTO$|HOSTNAME_MISMATCH)/;

/** Turns fetch's "fetch failed" (the real error is in `cause`) into a sentence naming the fault. */
export function describeNetworkError(err: unknown, url: URL): Extract<FetchResult, { kind: 'failed' }> {
  const cause = rootCause(err);
  const code = cause.code ?? '';
  const detail = cause.message ? `: ${firstLine(cause.message)}` : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'ENODATA') {
    return failed('dns', `DNS lookup failed: ${url.hostname} could not be resolved (${code}). Check the host name; the site may not exist.`, url);
  }
  if (code === 'ECONNREFUSED') return failed('refused', `Connection refused by ${url.host}: nothing is listening there (ECONNREFUSED).`, url);
  if (TLS_CODES.test(code) || /SSL|TLS|certificate/i.test(cause.message ?? '')) {
    const what = code || `handshake failed${detail}`;
    return failed('tls', `TLS error talking to ${url.host} (${what}). The server's HTTPS is broken or it does not speak HTTPS on this port.`, url);
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return failed('reset', `The connection to ${url.host} was closed before the answer was complete (${code || 'reset'}).`, url);
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return failed('timeout', `Timed out talking to ${url.host} (${code}).`, url);
  }
  return failed('network', `Fetching ${url.href} failed${code ? ` (${code})` : ''}${detail || ': network error'}.`, url);
}

function rootCause(err: unknown): { code?: string; message?: string } {
  let e = err as { code?: string; message?: string; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.code) return e;
    if (Array.isArray(e.errors) && e.errors.length) {
      e = e.errors[0] as typeof e;
      continue;
    }
    if (!e.cause) return e;
    e = e.cause as typeof e;
  }
  return e ?? {};
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
