/**
 * WebSearch, as Claude Code offers it: the model asks with `query` (and `allowed_domains` or
 * `blocked_domains`); the session runs one request with the API's server-side web_search tool
 * (core/web-search.ts), at most 8 searches for the call, and the results come back as a list of
 * titles and links with the model's summary. It asks before each call unless a `WebSearch` rule allows
 * it; `CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION` (default 200) caps the calls of one session. It is
 * offered only where the provider has a web search (session-setup).
 */
import type { z } from 'zod';
import { positiveEnvNumber } from '../../base/env-number.js';
import { ToolError } from '../../base/errors.js';
import { defineTool, lazySchema, type WebSearchAnswer } from '../../base/tool.js';

/** Searches the API may run for one call, as in Claude Code. */
export const MAX_USES_PER_CALL = 8;
export const DEFAULT_CALLS_PER_SESSION = 200;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    query: z.string().min(2, 'the query needs at least 2 characters').describe('The search query to use'),
    allowed_domains: z.array(z.string()).optional().describe('Only include search results from these domains'),
    blocked_domains: z.array(z.string()).optional().describe('Never include search results from these domains'),
  }),
);

export type WebSearchInput = z.infer<typeof inputSchema>;

export interface WebSearchOutput extends WebSearchAnswer {
  query: string;
  durationMs: number;
}

const DESCRIPTION = `Searches the web and returns the results (titles and links) with a short summary, for information beyond your training data: current events, recent releases, documentation you do not know.
- Give a precise query; use allowed_domains or blocked_domains (not both) to keep to or away from sites.
- Each call runs up to ${MAX_USES_PER_CALL} searches. Cite the pages you use as Markdown links in your answer.`;

/** Calls made so far, per session. */
const callsBySession = new Map<string, number>();

export const webSearchTool = defineTool<WebSearchInput, WebSearchOutput>({
  name: 'WebSearch',
  description: () => DESCRIPTION,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,

  async validateInput(input, ctx) {
    if (input.allowed_domains?.length && input.blocked_domains?.length) {
      return { ok: false, message: 'give allowed_domains or blocked_domains, not both' };
    }
    if (!ctx.searchWeb) return { ok: false, message: 'web search is not available with this provider: use WebFetch on pages you know' };
    const cap = Math.floor(positiveEnvNumber(ctx.env.CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION) ?? DEFAULT_CALLS_PER_SESSION);
    if ((callsBySession.get(ctx.sessionId) ?? 0) >= cap) {
      return {
        ok: false,
        message: `this session has made its ${cap} web searches (CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION): go on with what the searches found`,
      };
    }
    return { ok: true };
  },

  async checkPermissions(input) {
    return { behavior: 'ask', reason: `the model wants to search the web for "${input.query}"`, suggestions: ['WebSearch'] };
  },

  async *call(input, ctx) {
    if (!ctx.searchWeb) throw new ToolError('execution_failed', 'web search is not available with this provider');
    callsBySession.set(ctx.sessionId, (callsBySession.get(ctx.sessionId) ?? 0) + 1);
    const started = Date.now();
    yield { type: 'progress', message: `Searching the web for "${input.query}"` };
    const answer = await ctx.searchWeb(
      {
        query: input.query,
        maxUses: MAX_USES_PER_CALL,
        ...(input.allowed_domains?.length ? { allowedDomains: input.allowed_domains } : {}),
        ...(input.blocked_domains?.length ? { blockedDomains: input.blocked_domains } : {}),
      },
      ctx.signal,
    );
    return { ...answer, query: input.query, durationMs: Date.now() - started };
  },

  toModelResult(output) {
    const lines = [`Web search results for query: "${output.query}"`, ''];
    for (const s of output.searches) {
      if (s.error) lines.push(`Search "${s.query}" failed: ${s.error}`);
      else lines.push(`Links: ${JSON.stringify(s.results.map((r) => ({ title: r.title, url: r.url })))}`);
    }
    if (!output.searches.length) lines.push('No searches were run.');
    if (output.text) lines.push('', output.text);
    lines.push('', 'REMINDER: cite the sources you use in your answer as Markdown links.');
    return { content: lines.join('\n') };
  },

  summary(input) {
    return `Search: ${input.query}`;
  },

  display(output) {
    const results = output.searches.flatMap((s) => s.results);
    const failed = output.searches.filter((s) => s.error).length;
    const seconds = (output.durationMs / 1000).toFixed(1);
    return {
      summary: `${output.searches.length} search${output.searches.length === 1 ? '' : 'es'}, ${results.length} result${results.length === 1 ? '' : 's'} in ${seconds}s${failed ? ` (${failed} failed)` : ''}`,
      preview: results.map((r) => `${r.title} — ${r.url}`).join('\n'),
    };
  },
});
