/**
 * What the three cloud providers share: their SDK client (Anthropic's @anthropic-ai/bedrock-sdk,
 * vertex-sdk or foundry-sdk) sends one streaming request through wicket's own fetch, with no
 * retries or time limits of its own (the model client's apply) and no console output; its events
 * and errors come back as the model client knows them.
 */
import { FatalError } from '../../base/errors.js';
import { normalLimits, type ApiLimits } from '../limits.js';
import { proxyProblem } from '../proxy.js';
import { transportFetch } from '../fetch-adapter.js';
import { API_VERSION } from '../http-transport.js';
import { fromSdkError } from './sdk-errors.js';

/** What wicket asks of a provider's SDK client: its `post`. */
export interface SdkClient {
  post(path: string, opts: { body: unknown; stream: true; signal: AbortSignal; headers: Record<string, string> }): PromiseLike<unknown>;
}

export interface SdkCommon {
  limits?: Partial<ApiLimits>;
  userAgent?: string;
  /** ANTHROPIC_CUSTOM_HEADERS. */
  headers?: Record<string, string>;
}

/** The options each SDK client is made with; `betas` are the custom headers' `anthropic-beta`, which each request adds to its own. */
export function sdkClientOptions(common: SdkCommon) {
  const limits = normalLimits(common.limits);
  const { 'anthropic-beta': beta, ...headers } = common.headers ?? {};
  return {
    options: {
      fetch: transportFetch(limits),
      maxRetries: 0,
      // Wicket's own limits (limits.ts) end a silent request first.
      timeout: limits.totalMs + 60_000,
      logLevel: 'off' as const,
      // The Messages API version wicket speaks (http-transport.ts), not the client's newer default.
      defaultHeaders: { ...headers, 'anthropic-version': API_VERSION, ...(common.userAgent ? { 'user-agent': common.userAgent } : {}) },
    },
    betas: (beta ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
  };
}

/** POSTs a streaming Messages request through `client`; its events, pings left out. */
export async function sdkSend(
  client: SdkClient,
  body: Record<string, unknown>,
  signal: AbortSignal,
  betas: readonly string[],
): Promise<AsyncIterable<unknown>> {
  const unique = [...new Set(betas)];
  try {
    const stream = (await client.post('/v1/messages', {
      body,
      stream: true,
      signal,
      headers: unique.length ? { 'anthropic-beta': unique.join(',') } : {},
    })) as AsyncIterable<unknown>;
    return events(stream);
  } catch (err) {
    throw fromSdkError(err);
  }
}

async function* events(stream: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  try {
    for await (const event of stream) {
      if ((event as { type?: unknown } | null)?.type === 'ping') continue;
      yield event;
    }
  } catch (err) {
    throw fromSdkError(err);
  }
}

/**
 * Refuses, before any request, an endpoint that cannot be used: not a URL, not http or https, or
 * whose proxy cannot be used. `variable` names where it came from.
 */
export function checkEndpoint(endpoint: string, variable: string): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new FatalError('config', `${variable} does not make a URL: ${endpoint}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FatalError('config', `${variable} must be an http or https URL, got ${url.protocol}//…`);
  const problem = proxyProblem(url);
  if (problem) throw new FatalError('config', problem);
}
