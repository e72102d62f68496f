/**
 * The HTTP leg of a Messages API request, on Node's own http/https client. The SDK decodes the event
 * stream and builds its typed errors; the request itself does not go through `fetch`, because the
 * first `fetch` (or `Headers`) in a process loads undici and compiles its WebAssembly HTTP parser,
 * which costs more than the whole rest of a one-turn run.
 */
import * as http from 'node:http';
import type { ClientRequestArgs, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { APIConnectionError, APIError } from '@anthropic-ai/sdk/core/error';
import { useExtraCA } from './extra-ca.js';
import { normalLimits, RequestWatch, type ApiLimits } from './limits.js';
import { DEFAULT_BASE_URL, takePreconnected } from './preconnect.js';
import { describeProxy, proxyAgent, proxyFor, proxyProblem } from './proxy.js';
import { eventsOf, safeJSON } from './sse-events.js';

export { DEFAULT_BASE_URL };
export const API_VERSION = '2023-06-01';
/** An error body longer than this is cut: it only ever feeds one sentence. */
const MAX_ERROR_BODY = 64 * 1024;

export interface TransportConfig {
  apiKey?: string;
  authToken?: string;
  baseURL?: string;
  /** How long the server may stay silent, and how long a whole request may take (limits.ts). */
  limits?: Partial<ApiLimits>;
  userAgent?: string;
  /** Extra request headers (ANTHROPIC_CUSTOM_HEADERS). */
  headers?: Record<string, string>;
}

/** Response headers with the `get` the SDK's errors and our retry logic read. */
export class ResponseHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }
}

/** POSTs a streaming request to `/v1/messages` and yields the decoded events. */
export async function postMessagesStream(
  config: TransportConfig,
  body: unknown,
  signal: AbortSignal,
  betas: readonly string[] = [],
): Promise<AsyncIterable<unknown>> {
  const url = messagesURL(config.baseURL);
  const payload = Buffer.from(JSON.stringify(body));
  const { res, watch } = await send(url, requestHeaders(config, payload.length, betas), payload, normalLimits(config.limits), signal);
  const headers = new ResponseHeaders(res.headers);
  const status = res.statusCode ?? 0;
  if (status < 200 || status >= 300) throw await statusError(res, status, headers, watch);
  return eventsOf(res, headers, watch);
}

export function messagesURL(baseURL: string | undefined): URL {
  const base = (baseURL || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return new URL(`${base}/v1/messages`);
}

/** Why a base URL cannot be used (not a URL, not http or https, or its proxy cannot be), or undefined when it can. */
export function baseURLProblem(baseURL: string | undefined): string | undefined {
  let url: URL;
  try {
    url = messagesURL(baseURL);
  } catch {
    return `ANTHROPIC_BASE_URL is not a URL: ${baseURL}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `ANTHROPIC_BASE_URL must be an http or https URL, got ${url.protocol}//…`;
  return proxyProblem(url);
}

function requestHeaders(config: TransportConfig, length: number, betas: readonly string[]): Record<string, string> {
  // Custom headers may add to or replace the defaults, but not the body's framing or the credentials.
  const h: Record<string, string> = {
    accept: 'application/json',
    'anthropic-version': API_VERSION,
    'user-agent': config.userAgent ?? 'wicket',
    ...config.headers,
    'content-type': 'application/json',
    'content-length': String(length),
  };
  if (config.apiKey) h['x-api-key'] = config.apiKey;
  if (config.authToken) h.authorization = `Bearer ${config.authToken}`;
  // Betas a request needs go beside any the custom headers name.
  const beta = [
    ...new Set([
      ...(h['anthropic-beta']
        ?.split(',')
        .map((b) => b.trim())
        .filter(Boolean) ?? []),
      ...betas,
    ]),
  ];
  if (beta.length) h['anthropic-beta'] = beta.join(',');
  return h;
}

/** What the client needs of node:https (loaded on first use) or node:http. */
type ClientModule = Pick<typeof http, 'Agent' | 'request'>;

function clientModule(protocol: string): ClientModule {
  if (protocol !== 'https:') return http;
  useExtraCA();
  return process.getBuiltinModule('node:https') as ClientModule;
}

const agents = new Map<string, http.Agent>();

/**
 * One keep-alive agent per protocol, whose first connection to an origin may be the one the entry
 * opened while the code loaded (preconnect.ts).
 */
function agentFor(protocol: string): http.Agent {
  let agent = agents.get(protocol);
  if (agent) return agent;
  class PreconnectedAgent extends clientModule(protocol).Agent {
    override createConnection(options: ClientRequestArgs, onCreate?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
      const early = takePreconnected(protocol, options.host ?? 'localhost', Number(options.port));
      return early ?? super.createConnection(options, onCreate);
    }
  }
  // The options of Node's own global agent: idle connections close after 5 s, the newest is reused first.
  agent = new PreconnectedAgent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 });
  agents.set(protocol, agent);
  return agent;
}

/**
 * Sends the request; resolves with the response once its headers arrive, and the watch that goes on
 * timing it. The providers' clients send through it too (fetch-adapter.ts).
 */
export async function send(
  url: URL,
  headers: Record<string, string>,
  payload: Buffer,
  limits: ApiLimits,
  signal: AbortSignal,
  method = 'POST',
): Promise<{ res: IncomingMessage; watch: RequestWatch }> {
  const { request } = clientModule(url.protocol);
  const proxy = proxyFor(url);
  const agent = proxy ? await proxyAgent(url.protocol, proxy) : agentFor(url.protocol);
  const via = proxy ? ` (through the proxy ${describeProxy(proxy)})` : '';
  if (signal.aborted) throw signal.reason ?? new Error('aborted');
  return new Promise((resolve, reject) => {
    // Whichever is open when a limit passes is destroyed with the timeout: the request, then the response.
    // Before the response the promise is rejected at once: a request still waiting for its socket (a
    // proxy's CONNECT that never answers) reports no error of its own.
    let res: IncomingMessage | undefined;
    const stop = (err: Error) => {
      req.destroy(err);
      if (res) return;
      release();
      reject(err);
    };
    const watch = new RequestWatch(limits, (err) => (res ? res.destroy(err) : stop(err)), via);
    const req = request(url, { method, headers, agent } satisfies RequestOptions, (response) => {
      res = response;
      watch.headers();
      response.on('error', () => {}); // surfaces through the stream's iterator
      response.on('close', () => {
        release();
        watch.end();
      });
      resolve({ res: response, watch });
    });
    // One run's signal serves many requests: its listener goes when the exchange is over.
    const onAbort = () => {
      watch.end();
      stop(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const release = () => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('finish', () => watch.bodySent());
    req.on('error', (err) => {
      release();
      watch.end();
      if (signal.aborted) reject(signal.reason ?? err);
      else if (err instanceof APIError) reject(err);
      else reject(new APIConnectionError({ message: `connection failed${via}: ${err.message}`, cause: err }));
    });
    req.end(payload);
  });
}

async function statusError(res: IncomingMessage, status: number, headers: ResponseHeaders, watch: RequestWatch): Promise<APIError> {
  let text = '';
  try {
    for await (const chunk of res) {
      watch.activity();
      if (text.length < MAX_ERROR_BODY) text += String(chunk);
    }
  } catch {
    // A body cut short (or too slow: the watch destroys it) still leaves the status to report.
  } finally {
    watch.end();
  }
  const json = safeJSON(text);
  return APIError.generate(status, json, json ? undefined : text || undefined, headers as never);
}
