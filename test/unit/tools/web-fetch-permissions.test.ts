/**
 * WebFetch through the real permission engine (deny → ask → mode → allow → the tool's default):
 * seen and made-up URLs, domain rules both ways, and private addresses that ask even when a rule
 * allows the name. DNS is a fake: nothing here leaves the machine.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decidePermission } from '../../../src/permissions/decide.js';
import type { PermissionMode } from '../../../src/base/permission-modes.js';
import { parseRule } from '../../../src/base/rule-parse.js';
import type { PermissionDecision, PermissionRules } from '../../../src/base/permission-types.js';
import { PageCache } from '../../../src/tools/web-fetch/cache.js';
import { createWebFetchTool, webFetchInputSchema, type WebFetchOutput } from '../../../src/tools/web-fetch/index.js';
import type { LookupFn } from '../../../src/tools/web-fetch/private-address.js';
import { createToolEnv, resultText, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const DNS: Record<string, string[]> = {
  'example.com': ['93.184.216.34'],
  'docs.example.com': ['93.184.216.35'],
  'a.b.example.com': ['93.184.216.36'],
  'intranet.example.com': ['10.0.0.5'],
  'sneaky.example.com': ['93.184.216.37', '192.168.1.10'],
  'v6-private.example.com': ['fd00::1'],
  'public.org': ['8.8.8.8'],
};

let env: ToolEnv;
let lookups: string[];
let dns: Record<string, string[]>;
const lookup: LookupFn = async (host) => {
  lookups.push(host);
  const found = dns[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

beforeEach(() => {
  env = createToolEnv();
  lookups = [];
  dns = { ...DNS };
});
afterEach(() => env.cleanup());

function rules(r: { allow?: string[]; ask?: string[]; deny?: string[] } = {}): PermissionRules {
  const parse = (list: string[] = []) => list.map((x) => parseRule(x, 'projectSettings'));
  return { allow: parse(r.allow), ask: parse(r.ask), deny: parse(r.deny) };
}

function makeTool() {
  return createWebFetchTool({ lookup, cache: new PageCache() });
}

async function decide(
  url: string,
  opts: { rules?: Parameters<typeof rules>[0]; seen?: string[]; mode?: PermissionMode; tool?: ReturnType<typeof makeTool> } = {},
): Promise<PermissionDecision> {
  const tool = opts.tool ?? makeTool();
  const input = webFetchInputSchema.parse({ url, prompt: 'summarise' });
  const mode = opts.mode ?? 'default';
  const ctx = { ...env.nextCall({ permissionMode: mode, seenUrls: new Set(opts.seen ?? []) }) };
  return decidePermission({ tool, input, ctx, rules: rules(opts.rules), mode });
}

describe('WebFetch permission: seen and made-up URLs', () => {
  it('allows a URL that appeared in the conversation', async () => {
    const d = await decide('https://example.com/docs', { seen: ['https://example.com/docs'] });
    expect(d).toEqual({ behavior: 'allow', by: 'tool default: the URL appeared in the conversation; example.com is a public address' });
  });

  it('counts spellings that fetch the same page as seen, but not another query string', async () => {
    expect((await decide('http://example.com/docs#intro', { seen: ['https://example.com/docs'] })).behavior).toBe('allow');
    expect((await decide('https://EXAMPLE.com/docs', { seen: ['https://example.com/docs'] })).behavior).toBe('allow');
    expect((await decide('https://example.com/docs?k=secret', { seen: ['https://example.com/docs'] })).behavior).toBe('ask');
  });

  it('asks for a made-up URL, says why, and suggests a domain rule', async () => {
    const d = await decide('https://example.com/?data=c2VjcmV0');
    expect(d.behavior).toBe('ask');
    if (d.behavior !== 'ask') return;
    expect(d.reason).toContain('did not appear in the conversation');
    expect(d.reason).toContain('a made-up URL can carry data out in its query string');
    expect(d.suggestions).toEqual(['WebFetch(domain:example.com)']);
    expect(lookups).toEqual([]); // no DNS query (which could itself leak data) before the person says yes
  });

  it('dontAsk mode turns the ask into a denial', async () => {
    const d = await decide('https://example.com/made-up', { mode: 'dontAsk' });
    expect(d.behavior).toBe('deny');
  });

  it('bypassPermissions allows; plan mode allows (read-only)', async () => {
    expect((await decide('https://example.com/x', { mode: 'bypassPermissions' })).behavior).toBe('allow');
    expect((await decide('https://example.com/x', { mode: 'plan', seen: ['https://example.com/x'] })).behavior).toBe('allow');
  });
});

describe('WebFetch permission: domain rules', () => {
  it('an allow rule allows a made-up URL on that host once it resolves to a public address', async () => {
    const d = await decide('https://example.com/anything', { rules: { allow: ['WebFetch(domain:example.com)'] } });
    expect(d).toEqual({
      behavior: 'allow',
      by: 'tool default: allowed by the rule WebFetch(domain:example.com); example.com is a public address',
    });
  });

  it('matches hosts case-insensitively; *. covers subdomains at any depth but not the apex', async () => {
    const allow = { allow: ['WebFetch(domain:*.Example.COM)'] };
    expect((await decide('https://DOCS.example.com/a', { rules: allow })).behavior).toBe('allow');
    expect((await decide('https://a.b.example.com/a', { rules: allow })).behavior).toBe('allow');
    expect((await decide('https://example.com/a', { rules: allow })).behavior).toBe('ask');
    expect((await decide('https://notexample.com/a', { rules: allow })).behavior).toBe('ask');
  });

  it('a deny rule wins over an allow rule and over a seen URL', async () => {
    const both = { allow: ['WebFetch(domain:example.com)'], deny: ['WebFetch(domain:example.com)'] };
    const d = await decide('https://example.com/', { rules: both, seen: ['https://example.com/'] });
    expect(d).toMatchObject({ behavior: 'deny', by: 'deny rule WebFetch(domain:example.com) [projectSettings]' });
    expect((await decide('https://docs.example.com/', { rules: { deny: ['WebFetch(domain:*.example.com)'] }, mode: 'bypassPermissions' })).behavior).toBe(
      'deny',
    );
  });

  it('a bare WebFetch deny denies every URL', async () => {
    const d = await decide('https://example.com/', { rules: { deny: ['WebFetch'] }, seen: ['https://example.com/'] });
    expect(d.behavior).toBe('deny');
  });

  it('an ask rule asks even for a seen URL', async () => {
    const d = await decide('https://example.com/', { rules: { ask: ['WebFetch(domain:example.com)'] }, seen: ['https://example.com/'] });
    expect(d).toMatchObject({ behavior: 'ask', by: 'ask rule WebFetch(domain:example.com) [projectSettings]' });
  });

  it('rules for other domains or other specifiers do not apply', async () => {
    const d = await decide('https://example.com/', { rules: { allow: ['WebFetch(domain:public.org)', 'WebFetch(https://example.com/)'] } });
    expect(d.behavior).toBe('ask');
  });

  it('after one resolution, an allow rule matches directly (the trace names the rule)', async () => {
    const tool = makeTool();
    const r = { allow: ['WebFetch(domain:example.com)'] };
    await decide('https://example.com/a', { rules: r, tool });
    const d = await decide('https://example.com/b', { rules: r, tool });
    expect(d).toEqual({ behavior: 'allow', by: 'allow rule WebFetch(domain:example.com) [projectSettings]' });
    expect(lookups).toEqual(['example.com']);
  });
});

describe('WebFetch permission: private and link-local addresses ask even when a rule allows the name', () => {
  it.each([
    ['a name resolving to 10/8', 'https://intranet.example.com/', 'resolves to a private network address (10.0.0.5)'],
    ['a name with one private address among public ones', 'https://sneaky.example.com/', '192.168.1.10'],
    ['a name resolving to fc00::/7', 'https://v6-private.example.com/', 'unique-local'],
  ])('%s', async (_what, url, reason) => {
    const d = await decide(url, { rules: { allow: ['WebFetch(domain:*.example.com)'] } });
    expect(d.behavior).toBe('ask');
    if (d.behavior === 'ask') {
      expect(d.reason).toContain(reason);
      expect(d.reason).toContain("needs the user's approval every time");
      expect(d.suggestions).toEqual([]);
    }
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'WebFetch(domain:169.254.169.254)', 'link-local'],
    ['http://10.1.2.3/', 'WebFetch(domain:10.1.2.3)', 'private network'],
    ['http://172.20.0.1/', 'WebFetch(domain:172.20.0.1)', 'private network'],
    ['http://192.168.0.1/', 'WebFetch(domain:192.168.0.1)', 'private network'],
    ['http://[fe80::1]/', 'WebFetch(domain:[fe80::1])', 'link-local'],
    ['http://[::ffff:10.0.0.1]/', 'WebFetch(domain:*)', 'private network'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'WebFetch(domain:metadata.google.internal)', 'metadata service'],
    ['http://metadata/', 'WebFetch(domain:metadata)', 'metadata service'],
  ])('%s with %s', async (url, rule, reason) => {
    const d = await decide(url, { rules: { allow: [rule] }, seen: [url] });
    expect(d.behavior).toBe('ask');
    if (d.behavior === 'ask') expect(d.reason).toContain(reason);
    expect(lookups).toEqual([]);
  });

  it('a seen URL whose host resolves privately asks too (content can plant URLs)', async () => {
    const d = await decide('https://intranet.example.com/admin', { seen: ['https://intranet.example.com/admin'] });
    expect(d.behavior).toBe('ask');
  });

  it('loopback is this machine: a seen loopback URL is allowed without DNS', async () => {
    const d = await decide('http://127.0.0.1:8080/x', { seen: ['http://127.0.0.1:8080/x'] });
    expect(d.behavior).toBe('allow');
    expect((await decide('http://localhost:3000/', { rules: { allow: ['WebFetch(domain:localhost)'] } })).behavior).toBe('allow');
    expect(lookups).toEqual([]);
  });

  it('a host that does not resolve is allowed through the gate when seen: the fetch reports the DNS failure', async () => {
    const d = await decide('https://gone.example.net/', { seen: ['https://gone.example.net/'] });
    expect(d).toMatchObject({ behavior: 'allow' });
    if (d.behavior === 'allow') expect(d.by).toContain('did not resolve');
  });
});

describe('WebFetch: input checks (validate gate)', () => {
  const tool = makeTool();
  it.each([
    ['ftp://example.com/file', 'The ftp scheme is not supported'],
    ['file:///etc/passwd', 'The file scheme is not supported'],
    ['javascript:alert(1)', 'The javascript scheme is not supported'],
    ['https://user:pass@example.com/', 'credentials'],
    ['not a url', 'is not a valid URL'],
    ['', 'url is empty'],
    [`https://example.com/${'a'.repeat(2100)}`, 'at most 2000'],
  ])('%s is refused', async (url, message) => {
    const v = await tool.validateInput!({ url, prompt: 'x' }, env.ctx);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message).toContain(message);
  });

  it('an empty prompt is refused; a good input passes', async () => {
    expect(await tool.validateInput!({ url: 'https://example.com', prompt: '  ' }, env.ctx)).toMatchObject({ ok: false });
    expect(await tool.validateInput!({ url: 'https://example.com', prompt: 'x' }, env.ctx)).toEqual({ ok: true });
  });

  it('the schema is strict: url and prompt, both strings, nothing else', () => {
    expect(webFetchInputSchema.safeParse({ url: 'https://example.com', prompt: 'x' }).success).toBe(true);
    expect(webFetchInputSchema.safeParse({ url: 'https://example.com' }).success).toBe(false);
    expect(webFetchInputSchema.safeParse({ url: 'https://example.com', prompt: 'x', extra: 1 }).success).toBe(false);
    expect(webFetchInputSchema.safeParse({ url: 42, prompt: 'x' }).success).toBe(false);
  });
});

describe('WebFetch: DNS rebinding', () => {
  it('refuses at call time a host that was public when allowed and resolves privately now', async () => {
    const tool = makeTool();
    const r = { allow: ['WebFetch(domain:example.com)'] };
    expect((await decide('https://example.com/', { rules: r, tool })).behavior).toBe('allow');
    dns['example.com'] = ['127.0.0.1', '10.0.0.7'];
    const run = await tryRunTool(tool, { url: 'https://example.com/', prompt: 'x' }, env.nextCall(), env.state);
    expect(run.ok).toBe(true);
    if (!run.ok) return;
    const out = run.output as WebFetchOutput;
    expect(out).toMatchObject({ kind: 'error', reason: 'private_address' });
    expect(resultText(run.modelResult)).toContain('DNS rebinding');
  });

  it('a DNS failure at call time is a clear result, before any connection', async () => {
    const run = await tryRunTool(makeTool(), { url: 'https://gone.example.net/', prompt: 'x' }, env.nextCall(), env.state);
    expect(run.ok && run.output).toMatchObject({ kind: 'error', reason: 'dns' });
    if (run.ok) expect(resultText(run.modelResult)).toContain('gone.example.net does not exist (ENOTFOUND)');
  });
});
