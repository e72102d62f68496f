/**
 * A `fetch` over wicket's own HTTP client, for the providers' SDK clients (Bedrock, Vertex AI,
 * Foundry): their requests then go through the same proxy (HTTPS_PROXY, NO_PROXY), the same extra
 * CA certificates and the same time limits as a request to Anthropic's API. Each chunk of the
 * response body counts as the server's activity for the idle limit; a limit that passes ends the
 * body with wicket's timeout error, which the retry logic knows.
 *
 * Only what the SDK clients send is supported: a string or byte body, headers as an object, a
 * Headers or pairs, and an abort signal.
 */
import type { IncomingMessage } from 'node:http';
import { normalLimits, type ApiLimits, type RequestWatch } from './limits.js';
import { send } from './http-transport.js';
import { chunksOf } from './sse-events.js';

type FetchInput = string | URL | { url: string };

export function transportFetch(limits?: Partial<ApiLimits>): typeof fetch {
  const normal = normalLimits(limits);
  const fetchOver = async (input: FetchInput, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const payload = bodyBytes(init.body);
    const headers = headerRecord(init.headers);
    if (payload.length || init.method?.toUpperCase() === 'POST') headers['content-length'] = String(payload.length);
    const signal = init.signal ?? new AbortController().signal;
    const { res, watch } = await send(url, headers, payload, normal, signal, (init.method ?? 'GET').toUpperCase());
    return toResponse(res, watch);
  };
  return fetchOver as typeof fetch;
}

function bodyBytes(body: RequestInit['body']): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new TypeError('the request body of a provider client must be text or bytes');
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const pairs: Iterable<[string, string]> =
    Array.isArray(headers) || Symbol.iterator in (headers as object)
      ? (headers as Iterable<[string, string]>)
      : Object.entries(headers as Record<string, string>);
  for (const [name, value] of pairs) out[name.toLowerCase()] = value;
  return out;
}

/** The response as a WHATWG Response whose body reads the socket as it arrives. */
function toResponse(res: IncomingMessage, watch: RequestWatch): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const status = res.statusCode ?? 0;
  if (status === 204 || status === 304) {
    res.resume();
    return new Response(null, { status, headers });
  }
  const chunks = chunksOf(res);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const step = await chunks.next();
      watch.activity();
      if (step.done) {
        watch.end();
        controller.close();
      } else controller.enqueue(new Uint8Array(step.value.buffer, step.value.byteOffset, step.value.byteLength));
    },
    async cancel() {
      watch.end();
      await chunks.return?.();
    },
  });
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}
