/**
 * WebFetch: the window to the network. Fetches one page, turns it into Markdown and has the small
 * fast model answer the prompt over it. Untrusted text enters the conversation here and data could
 * leave through a made-up URL, so the gates matter: seen URLs and domain rules decide, private
 * addresses always ask (permissions.ts), cross-host redirects go back to the model, and every
 * fetch is bounded in time and bytes (fetch.ts).
 */
import type { z } from 'zod';
import { describeProxy, proxyDispatcher, proxyFor, proxyProblem } from '../../api/proxy.js';
import { monotonicMs } from '../../base/clock.js';
import { ToolError } from '../../base/errors.js';
import { VERSION } from '../../base/version.js';
import { defineTool, type Tool, type ToolContext, type ToolProgress, lazySchema } from '../../base/tool.js';
import { answerPrompt, cutText } from './answer.js';
import { PageCache, type CachedPage } from './cache.js';
import { convertBody, refuseBinaryType } from './convert.js';
import { webFetchDescription } from './description.js';
import { FetchAbortedError, fetchPage, type FetchResult } from './fetch.js';
import { checkHost, classifyHostLiterally, systemLookup, type LookupFn } from './private-address.js';
import { WebFetchGate } from './permissions.js';
import { webFetchDisplay, webFetchModelResult, type WebFetchOutput } from './result.js';
import { parseFetchUrl } from './url.js';

export const USER_AGENT = `wicket/${VERSION} (WebFetch)`;

export const webFetchInputSchema = lazySchema((z) =>
  z.strictObject({
    url: z.string().describe('The URL to fetch: a full http:// or https:// URL that the user gave or that appeared in the conversation.'),
    prompt: z.string().describe('What to find or extract from the page; a small model answers it from the page content.'),
  }),
);

export type WebFetchInput = z.infer<typeof webFetchInputSchema>;
export type { WebFetchOutput } from './result.js';

/** Everything that touches the world or sets a limit, injectable for tests and benchmarks. */
export interface WebFetchDeps {
  lookup?: LookupFn;
  cache?: PageCache;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  convertTimeoutMs?: number;
  dnsTimeoutMs?: number;
  userAgent?: string;
  now?: () => number;
}

type Output = WebFetchOutput;
type Base = { url: string; fromCache: boolean; durationMs: number };
type Loaded = { ok: true; page: CachedPage } | { ok: false; output: Output };

export function createWebFetchTool(deps: WebFetchDeps = {}): Tool<WebFetchInput, Output> {
  const lookup = deps.lookup ?? systemLookup;
  const cache = deps.cache ?? new PageCache({ ...(deps.now ? { now: deps.now } : {}) });
  const gate = new WebFetchGate({ lookup, dnsTimeoutMs: deps.dnsTimeoutMs ?? 5_000, now: deps.now ?? Date.now });

  /** Fetch + convert + cache; returns the cached page or an error output. */
  async function load(url: URL, ctx: ToolContext, base: () => Base): Promise<Loaded> {
    const verdict = classifyHostLiterally(url.hostname) ?? (await checkHost(url.hostname, lookup, deps.dnsTimeoutMs ?? 5_000));
    // Behind a proxy, a name this machine cannot resolve is the proxy's to resolve.
    const proxy = proxyFor(url);
    if (verdict.kind === 'unresolved' && !proxy) return failure(base, 'dns', verdict.message);
    const rebinding = gate.rebindingProblem(url.hostname, verdict);
    if (rebinding) return failure(base, 'private_address', rebinding);
    let fetched: FetchResult;
    try {
      fetched = await fetchPage(url, {
        signal: ctx.signal,
        userAgent: deps.userAgent ?? USER_AGENT,
        refuseContentType: refuseBinaryType,
        dispatcherFor: async (u) => {
          const p = proxyFor(u);
          return p && !proxyProblem(u) ? proxyDispatcher(p) : undefined;
        },
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
        ...(deps.maxBytes !== undefined ? { maxBytes: deps.maxBytes } : {}),
        ...(deps.maxRedirects !== undefined ? { maxRedirects: deps.maxRedirects } : {}),
      });
    } catch (err) {
      if (err instanceof FetchAbortedError) throw new ToolError('aborted', 'Interrupted by the user while fetching.');
      throw err;
    }
    if (fetched.kind === 'redirect') return { ok: true, page: { kind: 'redirect', status: fetched.status, location: fetched.to } };
    if (fetched.kind === 'failed') {
      const extra = {
        ...(fetched.status !== undefined ? { status: fetched.status } : {}),
        ...(fetched.contentType ? { contentType: fetched.contentType } : {}),
      };
      const network = fetched.reason !== 'unsupported_type' && fetched.reason !== 'too_many_redirects' && fetched.reason !== 'bad_redirect';
      return failure(base, fetched.reason, fetched.message + (network ? proxyNote(url) : ''), extra);
    }
    return pageFrom(fetched, ctx, base);
  }

  async function pageFrom(res: Extract<FetchResult, { kind: 'response' }>, ctx: ToolContext, base: () => Base): Promise<Loaded> {
    const convertOpts = { signal: ctx.signal, ...(deps.convertTimeoutMs !== undefined ? { timeoutMs: deps.convertTimeoutMs } : {}) };
    const converted = await convertBody(res.body, res.contentType, convertOpts).catch((err: unknown) => {
      if (ctx.signal.aborted) throw new ToolError('aborted', 'Interrupted by the user while converting the page.');
      throw err;
    });
    if (res.status >= 400) {
      const excerpt = converted.ok ? cutText(converted.text.trim(), 1_000).text : undefined;
      const message = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
      return failure(base, 'http_status', message, { status: res.status, contentType: res.contentType, ...(excerpt ? { excerpt } : {}) });
    }
    if (!converted.ok) return failure(base, 'unsupported_type', converted.message, { status: res.status, contentType: res.contentType });
    const page: CachedPage = {
      kind: 'page',
      finalUrl: res.url,
      status: res.status,
      statusText: res.statusText,
      contentType: res.contentType,
      bytes: res.body.byteLength,
      truncated: res.truncated,
      markdown: converted.text,
      answers: new Map(),
      ...(converted.note ? { note: converted.note } : {}),
    };
    return { ok: true, page };
  }

  return defineTool<WebFetchInput, Output>({
    name: 'WebFetch',
    description: webFetchDescription,
    inputSchema: webFetchInputSchema,

    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isDestructive: () => false,

    async validateInput(input) {
      const checked = parseFetchUrl(input.url);
      if (!checked.ok) return { ok: false, message: checked.message };
      if (!input.prompt.trim()) return { ok: false, message: 'prompt is empty. Say what to find or extract from the page.' };
      return { ok: true };
    },

    matchRules: (input, rules, list) => gate.matchRules(input, rules, list),
    checkPermissions: (input, ctx) => gate.checkPermissions(input, ctx),

    async *call(input, ctx): AsyncGenerator<ToolProgress, Output, void> {
      const started = monotonicMs();
      const checked = parseFetchUrl(input.url);
      if (!checked.ok) throw new ToolError('validation_failed', checked.message);
      const url = checked.url;
      url.hash = '';
      let fromCache = true;
      const base = (): Base => ({ url: url.href, fromCache, durationMs: Math.round(monotonicMs() - started) });
      let page = cache.get(url.href);
      if (!page) {
        fromCache = false;
        yield { type: 'progress', message: `Fetching ${url.href}` };
        const loaded = await load(url, ctx, base);
        if (!loaded.ok) return loaded.output;
        cache.set(url.href, loaded.page);
        page = loaded.page;
      }
      if (page.kind === 'redirect') return { ...base(), kind: 'redirect', status: page.status, location: page.location };
      const notes = page.note ? [page.note] : [];
      let answer = page.answers.get(input.prompt);
      let answeredBy: 'small-model' | 'page' = 'small-model';
      if (answer === undefined) {
        yield { type: 'progress', message: ctx.querySmallModel ? 'Reading the page with the small model' : 'Preparing the page', data: { bytes: page.bytes } };
        const ask = { signal: ctx.signal, ...(ctx.querySmallModel ? { querySmallModel: ctx.querySmallModel } : {}) };
        const a = await answerPrompt(page.markdown, input.prompt, page.finalUrl, ask);
        answer = a.text;
        answeredBy = a.by;
        if (a.note) notes.push(a.note);
        if (a.by === 'small-model') cache.addAnswer(url.href, input.prompt, a.text);
      }
      const { finalUrl, status, statusText, contentType, bytes, truncated } = page;
      return { ...base(), kind: 'page', finalUrl, status, statusText, contentType, bytes, truncated, answer, answeredBy, notes };
    },

    toModelResult: (output) => webFetchModelResult(output),
    summary: (input) => `Fetch ${input.url}`,
    display: (output) => webFetchDisplay(output),
  });
}

/** A network failure where a proxy is configured: WebFetch connects directly, which such a network may not allow. */
function proxyNote(url: URL): string {
  const proxy = proxyFor(url);
  if (!proxy) return '';
  const problem = proxyProblem(url);
  return problem ? ` (${problem}, so WebFetch connected directly)` : ` (through the proxy ${describeProxy(proxy)})`;
}

function failure(base: () => Base, reason: string, message: string, extra: Partial<Extract<Output, { kind: 'error' }>> = {}): Loaded {
  return { ok: false, output: { ...base(), ...extra, kind: 'error', reason, message } };
}

export const webFetchTool = createWebFetchTool();
