/**
 * WebSearch's request: Claude Code's way, a request of its own on the session's model that offers
 * the API's server-side `web_search` tool (with the call's allowed or blocked domains and a cap on
 * searches), whose answer holds `server_tool_use` and `web_search_tool_result` blocks. Its tokens and
 * its searches ($10 per 1,000, as the API bills them) count in the session's cost.
 */
import type { ModelClient } from '../api/model-client.js';
import type { AgentEvent, ContentBlock } from '../base/events.js';
import { monotonicMs } from '../base/clock.js';
import type { WebSearchAnswer, WebSearchQuery } from '../base/tool.js';
import { usageEvent } from './usage-event.js';

export const WEB_SEARCH_TOOL_TYPE = 'web_search_20250305';
/** USD per search the API runs. */
export const WEB_SEARCH_PRICE = 0.01;

const SYSTEM = 'You are an assistant for performing a web search tool use.';

export async function searchWeb(
  o: { client: ModelClient; model: string; maxTokens?: number },
  q: WebSearchQuery,
  signal: AbortSignal,
  emit: (e: AgentEvent) => void,
): Promise<WebSearchAnswer> {
  const started = monotonicMs();
  const tool = {
    type: WEB_SEARCH_TOOL_TYPE,
    name: 'web_search',
    max_uses: q.maxUses,
    ...(q.allowedDomains?.length ? { allowed_domains: q.allowedDomains } : {}),
    ...(q.blockedDomains?.length ? { blocked_domains: q.blockedDomains } : {}),
  };
  const stream = o.client.stream(
    {
      model: o.model,
      system: [{ type: 'text', text: SYSTEM }],
      messages: [{ role: 'user', content: `Perform a web search for the query: ${q.query}` }],
      tools: [],
      serverTools: [tool],
      maxTokens: o.maxTokens ?? 4096,
    },
    signal,
  );
  let step = await stream.next();
  while (!step.done) step = await stream.next();
  const final = step.value;
  const searches = final.webSearchRequests ?? 0;
  emit(usageEvent(o.model, final.usage, started, searches * WEB_SEARCH_PRICE));
  return answerOf(final.content);
}

/** The searches and the text of the API's answer. */
export function answerOf(content: readonly ContentBlock[]): WebSearchAnswer {
  const queries = new Map<string, string>();
  const out: WebSearchAnswer = { searches: [], text: '' };
  const texts: string[] = [];
  for (const b of content) {
    if (b.type === 'server_tool_use') {
      const query = (b.input as { query?: unknown } | undefined)?.query;
      queries.set(b.id, typeof query === 'string' ? query : '');
    } else if (b.type === 'web_search_tool_result') {
      const query = queries.get(b.tool_use_id) ?? '';
      if (Array.isArray(b.content)) {
        const results = b.content
          .filter((r): r is { title?: unknown; url?: unknown; page_age?: unknown } => typeof r === 'object' && r !== null)
          .filter((r) => typeof r.url === 'string')
          .map((r) => ({
            title: typeof r.title === 'string' ? r.title : String(r.url),
            url: String(r.url),
            ...(typeof r.page_age === 'string' ? { pageAge: r.page_age } : {}),
          }));
        out.searches.push({ query, results });
      } else {
        const code = (b.content as { error_code?: unknown } | undefined)?.error_code;
        out.searches.push({ query, results: [], error: typeof code === 'string' ? code : 'unknown error' });
      }
    } else if (b.type === 'text' && b.text.trim()) texts.push(b.text.trim());
  }
  out.text = texts.join('\n\n');
  return out;
}
