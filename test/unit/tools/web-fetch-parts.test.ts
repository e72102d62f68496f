/** WebFetch's pure parts: domain patterns, address classes, URL rules, the cache, conversion, the answer. */
import { afterAll, describe, expect, it } from 'vitest';
import { cutText, smallModelPrompt } from '../../../src/tools/web-fetch/answer.js';
import { PageCache, type CachedPage } from '../../../src/tools/web-fetch/cache.js';
import { classifyContentType, convertBody, decodeText, refuseBinaryType, sniff } from '../../../src/tools/web-fetch/convert.js';
import { domainPattern, findDomainRule, hostMatches, suggestedRule } from '../../../src/tools/web-fetch/domain-match.js';
import { htmlToMarkdown, htmlToText, MAX_HTML_CHARS, nestsDeeperThan, stripNoise, tidy } from '../../../src/tools/web-fetch/html.js';
import { convertInWorker, ConvertError, stopHtmlWorkers } from '../../../src/tools/web-fetch/html-worker.js';
import { checkHost, classifyIp, isLoopbackHost, isMetadataHost } from '../../../src/tools/web-fetch/private-address.js';
import { webFetchDisplay, webFetchModelResult } from '../../../src/tools/web-fetch/result.js';
import { isSameHost, isSeen, parseFetchUrl } from '../../../src/tools/web-fetch/url.js';
import { parseRule } from '../../../src/base/rule-parse.js';

afterAll(() => stopHtmlWorkers());
const signal = new AbortController().signal;

describe('domain-match', () => {
  it.each([
    ['example.com', 'example.com', true],
    ['EXAMPLE.com.', 'example.com', true],
    ['www.example.com', 'example.com', false],
    ['docs.example.com', '*.example.com', true],
    ['a.b.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['badexample.com', '*.example.com', false],
    ['docs.rust.dev', 'docs.*.dev', true],
    ['docs.a.b.dev', 'docs.*.dev', false],
    ['api-v2.example.com', 'api-*.example.com', true],
    ['xn--bcher-kva.example', 'bücher.example', true],
  ])('%s vs %s → %s', (host, pattern, expected) => {
    expect(hostMatches(host, domainPattern(`domain:${pattern}`)!)).toBe(expected);
  });

  it('reads only domain: specifiers, and finds the first matching rule', () => {
    expect(domainPattern('domain:Example.COM')).toBe('example.com');
    expect(domainPattern('https://example.com')).toBeUndefined();
    expect(domainPattern('domain:')).toBeUndefined();
    const rules = ['WebFetch(domain:a.com)', 'WebFetch(domain:*.b.com)', 'WebFetch(domain:x.b.com)'].map((r) => parseRule(r, 'userSettings'));
    expect(findDomainRule('x.b.com', rules)?.raw).toBe('WebFetch(domain:*.b.com)');
    expect(findDomainRule('c.com', rules)).toBeUndefined();
    expect(suggestedRule('Docs.Example.com')).toBe('WebFetch(domain:docs.example.com)');
  });
});

describe('private-address', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:c0a8:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['224.0.0.1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyIp(ip)).toBe(cls);
  });

  it('knows names: localhost, metadata services, non-addresses', () => {
    expect(classifyIp('example.com')).toBeUndefined();
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('app.localhost')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
    expect(isMetadataHost('metadata')).toBe(true);
    expect(isMetadataHost('metadata.google.internal')).toBe(true);
    expect(isMetadataHost('instance-data.ec2.internal')).toBe(true);
    expect(isMetadataHost('metadatabase.com')).toBe(false);
  });

  it('checkHost: literal hosts need no DNS; a name is restricted when any address is; lookups time out', async () => {
    const never = () => new Promise<string[]>(() => undefined);
    expect(await checkHost('10.0.0.1', never)).toEqual({ kind: 'restricted', cls: 'private', address: '10.0.0.1' });
    expect(await checkHost('localhost', never)).toEqual({ kind: 'ok', cls: 'loopback' });
    expect(await checkHost('x.test', async () => ['1.1.1.1', '169.254.1.1'])).toEqual({ kind: 'restricted', cls: 'link-local', address: '169.254.1.1' });
    expect(await checkHost('x.test', async () => ['1.1.1.1'])).toEqual({ kind: 'ok', cls: 'public', address: '1.1.1.1' });
    const slow = await checkHost('x.test', never, 50);
    expect(slow.kind).toBe('unresolved');
    if (slow.kind === 'unresolved') expect(slow.message).toContain('longer than 50 ms');
  });
});

describe('url', () => {
  it('upgrades http to https except on loopback; keeps the rest', () => {
    const a = parseFetchUrl('http://example.com/a?b=1');
    expect(a.ok && a.url.href).toBe('https://example.com/a?b=1');
    expect(a.ok && a.upgraded).toBe(true);
    for (const local of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://[::1]:3000/']) {
      const r = parseFetchUrl(local);
      expect(r.ok && r.url.protocol).toBe('http:');
    }
  });

  it('seen URLs: same page in another spelling, not another query', () => {
    const seen = new Set(['https://example.com/docs', 'see http://example.org']);
    expect(isSeen('https://example.com/docs', seen)).toBe(true);
    expect(isSeen('http://example.com/docs', seen)).toBe(true);
    expect(isSeen('https://example.com/docs#x', seen)).toBe(true);
    expect(isSeen('https://example.com/docs?q=1', seen)).toBe(false);
    expect(isSeen('https://example.com/docs/', seen)).toBe(false);
    expect(isSeen('https://example.com/docs', undefined)).toBe(false);
  });

  it('same host: same name and port; http → https upgrade on the default ports; no downgrade', () => {
    const u = (s: string) => new URL(s);
    expect(isSameHost(u('http://a.com/x'), u('http://a.com/y'))).toBe(true);
    expect(isSameHost(u('http://a.com/x'), u('https://a.com/y'))).toBe(true);
    expect(isSameHost(u('https://a.com/x'), u('http://a.com/y'))).toBe(false);
    expect(isSameHost(u('https://a.com/x'), u('https://a.com:8443/y'))).toBe(false);
    expect(isSameHost(u('https://a.com/x'), u('https://b.a.com/y'))).toBe(false);
  });
});

describe('cache', () => {
  const page = (markdown: string): CachedPage => ({
    kind: 'page',
    finalUrl: 'https://x',
    status: 200,
    statusText: 'OK',
    contentType: 'text/plain',
    bytes: markdown.length,
    truncated: false,
    markdown,
    answers: new Map(),
  });

  it('expires entries after the TTL', () => {
    let now = 0;
    const c = new PageCache({ now: () => now });
    c.set('a', page('x'));
    now = 15 * 60 * 1000 - 1;
    expect(c.get('a')).toBeDefined();
    now = 15 * 60 * 1000;
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('is bounded by entries and characters, dropping the least recently used', () => {
    const c = new PageCache({ maxEntries: 2, maxChars: 1_000 });
    c.set('a', page('a'));
    c.set('b', page('b'));
    c.get('a');
    c.set('c', page('c'));
    expect([c.get('a'), c.get('b'), c.get('c')].map(Boolean)).toEqual([true, false, true]);
    c.set('big', page('x'.repeat(5_000)));
    expect(c.get('big')).toBeUndefined();
    c.set('d', page('d'.repeat(900)));
    expect(c.size).toBe(1);
  });

  it('keeps a bounded number of answers per page', () => {
    const c = new PageCache();
    c.set('a', page('x'));
    for (let i = 0; i < 20; i++) c.addAnswer('a', `q${i}`, `answer ${i}`);
    const p = c.get('a');
    expect(p?.kind === 'page' && p.answers.size).toBe(8);
    expect(p?.kind === 'page' && p.answers.get('q19')).toBe('answer 19');
  });
});

describe('convert', () => {
  it.each([
    ['text/html; charset=utf-8', 'html'],
    ['application/xhtml+xml', 'html'],
    ['text/plain', 'text'],
    ['text/markdown', 'text'],
    ['application/json', 'text'],
    ['application/vnd.api+json', 'text'],
    ['application/rss+xml', 'text'],
    ['application/pdf', 'pdf'],
    ['application/octet-stream', 'unknown'],
    ['', 'unknown'],
    ['image/png', 'binary'],
    ['application/zip', 'binary'],
    ['video/mp4', 'binary'],
  ])('%s → %s', (type, kind) => {
    expect(classifyContentType(type)).toBe(kind);
  });

  it('refuses binary types by name before reading; sniffs the rest', () => {
    expect(refuseBinaryType('image/png')).toContain('image/png');
    expect(refuseBinaryType('text/html')).toBeUndefined();
    expect(sniff(Buffer.from('%PDF-1.4 ...'))).toBe('pdf');
    expect(sniff(Buffer.from('<!DOCTYPE html><p>x'))).toBe('html');
    expect(sniff(Buffer.from('plain words'))).toBe('text');
    expect(sniff(Buffer.from([1, 2, 0, 3]))).toBe('binary');
  });

  it('decodes charsets; unknown charsets fall back to UTF-8; bad bytes become U+FFFD', () => {
    expect(decodeText(Buffer.from([0xe9]), 'text/plain; charset=latin1')).toBe('é');
    expect(decodeText(Buffer.from('ü'), 'text/plain; charset=no-such-charset')).toBe('ü');
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]), 'text/plain')).toBe('a\uFFFDb');
  });

  it('a broken PDF is a clear refusal, not a crash', async () => {
    const r = await convertBody(Buffer.from('%PDF-1.4 garbage'), 'application/pdf', { signal });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('The PDF could not be read');
  });
});

describe('html', () => {
  it('strips scripts, styles, comments and SVG in any letter case, keeping the rest', () => {
    const html = '<p>a</p><SCRIPT type="x">if (a<b) {}</script ><!-- c --><style>p{}</style><svg/><p>b</p><svg><path/></svg><p>c</p>';
    expect(stripNoise(html)).toBe('<p>a</p><p>b</p><p>c</p>');
    expect(stripNoise('<p>a</p><script>never closed <p>b</p>')).toBe('<p>a</p>');
    expect(stripNoise('<header>kept</header><head><title>t</title></head>')).toBe('<header>kept</header>');
    expect(stripNoise('<p>abcdef</p>', 5)).toBe('<p>ab');
  });

  it('plain-text fallback: tags out, blocks as lines, entities decoded', () => {
    expect(htmlToText('<h1>T&amp;C</h1><p>a&nbsp;b &lt;c&gt; &#233; &#x1F600;</p><div>d<br>e</div><b>unclosed')).toBe('T&C\n\na b <c> é 😀\n\nd\ne\nunclosed');
  });

  it('tidies Markdown in linear time, even a long run of spaces without a newline', () => {
    expect(tidy('a  \n\n\n\nb\t\n')).toBe('a\n\nb');
    const t0 = Date.now();
    expect(tidy(`x${' '.repeat(1_000_000)}y`)).toHaveLength(1_000_002);
    expect(htmlToText(`<pre>x${' '.repeat(1_000_000)}y</pre>`)).toBe('x y');
    expect(Date.now() - t0).toBeLessThan(5_000); // tens of milliseconds; a quadratic pass would take hours
  });

  it('measures nesting without counting void or optional-end elements', () => {
    expect(nestsDeeperThan('<div>'.repeat(401), 400)).toBe(true);
    expect(nestsDeeperThan('<div></div>'.repeat(10_000), 400)).toBe(false);
    expect(nestsDeeperThan('<p>x<br><img src=a><li>y'.repeat(10_000), 400)).toBe(false);
    expect(nestsDeeperThan('<b><i>'.repeat(300), 400)).toBe(true);
    expect(nestsDeeperThan('<a'.repeat(100_000), 400)).toBe(true);
  });

  it('hostile nesting goes to plain text at once instead of stalling the parser', async () => {
    const t0 = Date.now();
    const r = await htmlToMarkdown('<div>'.repeat(50_000) + 'deep text', { signal });
    expect(r).toMatchObject({ via: 'text', markdown: 'deep text' });
    expect(r.note).toContain('nest more than 400 deep');
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('links, lists, code and tables survive; data-URI images and javascript: links do not', async () => {
    const r = await htmlToMarkdown(
      '<ol start="3"><li>three</li><li>four</li></ol><a href="javascript:void(0)">click</a> <img alt="logo" src="data:image/png;base64,AAAA"> <a href="https://e.com">e</a>',
      { signal },
    );
    expect(r.via).toBe('turndown');
    expect(r.markdown).toContain('3. three\n4. four');
    expect(r.markdown).toContain('click [image: logo] [e](https://e.com)');
    expect(r.markdown).not.toContain('base64');
  });

  it('cuts HTML beyond the limit', async () => {
    const r = await htmlToMarkdown(`<p>${'word '.repeat(MAX_HTML_CHARS / 4)}</p><p>END</p>`, { signal });
    expect(r.cut).toBe(true);
    expect(r.markdown).not.toContain('END');
  });

  it('the worker: a time limit ends a slow conversion, an abort ends it at once', async () => {
    const slow = '<table><tr><td>x<b>y</b></td></tr></table>'.repeat(40_000);
    await expect(convertInWorker(slow, { signal, timeoutMs: 50 })).rejects.toMatchObject({ reason: 'timeout' });
    const ac = new AbortController();
    const p = convertInWorker(slow, { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    await expect(p).rejects.toBeInstanceOf(ConvertError);
    expect(await convertInWorker('<h2>after</h2>', { signal })).toBe('## after');
  });

  it('the worker: conversions beyond two wait their turn, and an abort while waiting rejects at once', async () => {
    const slow = '<table><tr><td>x<b>y</b></td></tr></table>'.repeat(20_000);
    const busy = [convertInWorker(slow, { signal, timeoutMs: 300 }), convertInWorker(slow, { signal, timeoutMs: 300 })].map((p) => p.catch((e: unknown) => e));
    const ac = new AbortController();
    const waiting = convertInWorker('<p>x</p>', { signal: ac.signal });
    const queued = convertInWorker('<h3>queued</h3>', { signal });
    ac.abort();
    await expect(waiting).rejects.toMatchObject({ reason: 'aborted' });
    expect(await queued).toBe('### queued');
    await Promise.all(busy);
  });

  it('falls back to text when the converter times out', async () => {
    const r = await htmlToMarkdown('<table><tr><td>x<b>y</b></td></tr></table>'.repeat(20_000), { signal, timeoutMs: 50 });
    expect(r.via).toBe('text');
    expect(r.note).toContain('longer than');
  });
});

describe('answer and result', () => {
  it('cuts long text at a line break and says how much is left out', () => {
    const r = cutText(`${'line\n'.repeat(100)}`, 52);
    expect(r.cut).toBe(true);
    expect(r.text).toMatch(/^(line\n){9}line\n\n\[… 451 more characters not shown\]$/);
    expect(cutText('short', 10)).toEqual({ text: 'short', cut: false });
  });

  it('the small-model prompt carries the page, the URL and the question', () => {
    const p = smallModelPrompt('# Page', 'What?', 'https://e.com');
    expect(p).toContain('https://e.com');
    expect(p).toContain('<page>\n# Page\n</page>');
    expect(p).toContain('What?');
  });

  it('display: status, bytes and content type; errors and redirects are readable', () => {
    const base = { url: 'https://e.com/', fromCache: false, durationMs: 5 };
    const page = {
      ...base,
      kind: 'page' as const,
      finalUrl: 'https://e.com/',
      status: 200,
      statusText: 'OK',
      contentType: 'text/html',
      bytes: 2048,
      truncated: false,
      answer: 'a',
      answeredBy: 'small-model' as const,
      notes: [],
    };
    expect(webFetchDisplay(page)).toMatchObject({ summary: '200 OK · 2.0 KB · text/html', status: 200, bytes: 2048, contentType: 'text/html' });
    const redirect = { ...base, kind: 'redirect' as const, status: 301, location: 'https://f.com/' };
    expect(webFetchDisplay(redirect).summary).toBe('301 redirect to https://f.com/ (not followed)');
    expect(webFetchModelResult(redirect).isError).toBeUndefined();
    const error = { ...base, kind: 'error' as const, reason: 'timeout', message: 'too slow' };
    expect(webFetchModelResult(error)).toEqual({ content: 'WebFetch could not get https://e.com/: too slow', isError: true });
  });
});
