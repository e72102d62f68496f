/**
 * WebSearch through the built binary, against the fake API's server-side web_search: the request
 * that offers the server tool (domains from the call, max_uses), the results the model reads, the
 * searches in the cost, the `WebSearch` permission rule, the per-session cap, and a provider without
 * web search.
 */
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { startFakeBedrock } from '../support/fake-clouds.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();
type Body = { tools?: Array<Record<string, unknown>>; messages: Array<{ role: string; content: unknown }>; system: Array<{ text: string }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const RESULTS = [
  { title: 'Node.js 22 release notes', url: 'https://nodejs.org/en/blog/release/v22.0.0', page_age: '2 months ago' },
  { title: 'What is new in Node 22', url: 'https://example.com/node-22' },
];

describe('WebSearch', () => {
  it('runs the API’s web_search with the call’s domains, and the model reads titles and links', async () => {
    t.api.script(
      reply().toolUse('WebSearch', { query: 'node 22 release', allowed_domains: ['nodejs.org', 'example.com'] }),
      reply().text('Searching.').webSearch('node 22 release', RESULTS).webSearch('node 22 features', []).text('Node 22 shipped in April.', { newBlock: true }),
      reply().text('Node 22 came out in April.'),
    );
    const r = expectExit(await t.run(['-p', 'when did node 22 ship?', '--allowedTools', 'WebSearch', '--output-format', 'json']), 0);
    const [main, search, after] = bodies();
    expect(main!.tools?.some((tool) => tool.name === 'WebSearch')).toBe(true);
    expect(search!.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['nodejs.org', 'example.com'] }]);
    expect(JSON.stringify(search!.messages)).toContain('node 22 release');
    const result = JSON.stringify(after!.messages.at(-1));
    expect(result).toContain('https://nodejs.org/en/blog/release/v22.0.0');
    expect(result).toContain('Node.js 22 release notes');
    expect(result).toContain('Node 22 shipped in April.');
    // Two searches at $10 per 1,000, besides the tokens.
    expect(r.json<{ total_cost_usd: number }>().total_cost_usd).toBeGreaterThanOrEqual(0.02);
  });

  it('blocked_domains reach the search; both lists at once are refused before any search', async () => {
    t.api.script(
      reply().toolUse('WebSearch', { query: 'tsx loader', blocked_domains: ['spam.example'] }),
      reply().webSearch('tsx loader', RESULTS.slice(1)),
      reply().toolUse('WebSearch', { query: 'tsx loader', allowed_domains: ['a.example'], blocked_domains: ['b.example'] }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'search', '--allowedTools', 'WebSearch']), 0);
    const all = bodies();
    expect(all).toHaveLength(4);
    expect(all[1]!.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 8, blocked_domains: ['spam.example'] }]);
    expect(JSON.stringify(all[3]!.messages.at(-1))).toContain('allowed_domains or blocked_domains, not both');
  });

  it('without a WebSearch rule print mode refuses the call: no search request is made', async () => {
    t.api.script(reply().toolUse('WebSearch', { query: 'secret plans' }), reply().text('ok'));
    expectExit(await t.run(['-p', 'search']), 0);
    expect(bodies()).toHaveLength(2);
    expect(JSON.stringify(bodies()[1]!.messages.at(-1))).toContain('WebSearch');
    expect(JSON.stringify(bodies())).not.toContain('web_search_20250305');
  });

  it('CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION caps the calls of a session', async () => {
    t.api.script(
      reply().toolUse('WebSearch', { query: 'first' }),
      reply().webSearch('first', RESULTS),
      reply().toolUse('WebSearch', { query: 'second' }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'search twice', '--allowedTools', 'WebSearch'], { env: { CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION: '1' } }), 0);
    expect(bodies()).toHaveLength(4);
    expect(JSON.stringify(bodies()[3]!.messages.at(-1))).toContain('made its 1 web searches');
  });

  it('a search the API could not run is reported to the model', async () => {
    t.api.script(reply().toolUse('WebSearch', { query: 'x y' }), reply().webSearch('x y', { error_code: 'max_uses_exceeded' }), reply().text('ok'));
    expectExit(await t.run(['-p', 'search', '--allowedTools', 'WebSearch']), 0);
    expect(JSON.stringify(bodies()[2]!.messages.at(-1))).toContain('failed: max_uses_exceeded');
  });

  it('is not offered where the provider has no web search (Amazon Bedrock)', async () => {
    const front = await startFakeBedrock(t.api, { region: 'us-west-2', apiKeys: ['bedrock-api-key'] });
    try {
      t.api.script(reply().text('hi'));
      const env = {
        ANTHROPIC_API_KEY: undefined,
        CLAUDE_CODE_USE_BEDROCK: '1',
        AWS_REGION: 'us-west-2',
        ANTHROPIC_BEDROCK_BASE_URL: front.url,
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key',
      };
      expectExit(await t.run(['-p', 'hi'], { env }), 0);
      expect(front.requests.length).toBeGreaterThan(0);
      expect(bodies()[0]!.tools?.some((tool) => tool.name === 'WebSearch')).toBe(false);
    } finally {
      await front.close();
    }
  });
});
