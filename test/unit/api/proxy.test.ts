import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseURLProblem, postMessagesStream } from '../../../src/api/http-transport.js';
import { startPreconnect, takePreconnected } from '../../../src/api/preconnect.js';
import { describeProxy, proxyFor } from '../../../src/api/proxy.js';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic-server.js';

const VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'];
const saved: Record<string, string | undefined> = {};
const closers: Array<() => unknown> = [];

beforeEach(() => {
  for (const k of VARS) {
    saved[k] = process.env[k];
    delete process.env[k];
  }
});
afterEach(async () => {
  for (const k of VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  for (const c of closers.splice(0).reverse()) await c();
});

const listening = async (server: Server | ReturnType<typeof createNetServer>): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as AddressInfo).port;
};

/** A forward proxy for plain http: it records each request line's URL and passes the exchange on. */
async function forwardProxy(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(req.url ?? '');
    const upstream = request(req.url!, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return { url: `http://127.0.0.1:${await listening(server)}`, seen };
}

describe('proxy', () => {
  it('follows HTTPS_PROXY and HTTP_PROXY by scheme, in either case, and NO_PROXY', () => {
    expect(proxyFor(new URL('https://api.anthropic.com/v1/messages'))).toBeUndefined();
    process.env.https_proxy = 'http://proxy.internal:3128';
    process.env.HTTP_PROXY = 'http://plain.internal:8080';
    expect(proxyFor(new URL('https://api.anthropic.com/v1/messages'))?.href).toBe('http://proxy.internal:3128/');
    expect(proxyFor(new URL('http://gateway.example:4000/v1/messages'))?.href).toBe('http://plain.internal:8080/');
    process.env.NO_PROXY = 'localhost,.example';
    expect(proxyFor(new URL('http://gateway.example:4000/v1/messages'))).toBeUndefined();
    expect(proxyFor(new URL('https://api.anthropic.com/v1/messages'))).toBeDefined();
  });

  it('refuses at once a proxy that is not an http(s) URL, without echoing it', () => {
    process.env.HTTPS_PROXY = 'socks5://me:secret@127.0.0.1:1080';
    expect(baseURLProblem(undefined)).toBe(
      'the proxy for https requests (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY) must be an http or https proxy, got socks5://127.0.0.1:1080',
    );
    process.env.HTTPS_PROXY = 'http://me:secret@[bad';
    expect(baseURLProblem(undefined)).toBe('the proxy for https requests (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY) is not a URL');
    process.env.NO_PROXY = 'api.anthropic.com';
    expect(baseURLProblem(undefined)).toBeUndefined(); // not used for this host
  });

  it('names a proxy without its credentials', () => {
    expect(describeProxy(new URL('http://user:secret@proxy.internal:3128'))).toBe('http://proxy.internal:3128');
  });

  it('sends requests to an http API through HTTP_PROXY', async () => {
    const server: FakeAnthropic = await startFakeAnthropic();
    closers.push(() => server.close());
    const proxy = await forwardProxy();
    process.env.HTTP_PROXY = proxy.url;
    server.script(reply().text('via the proxy'));
    const events: any[] = [];
    const body = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true };
    for await (const e of await postMessagesStream({ apiKey: 'k', baseURL: server.url, limits: { idleMs: 5000 } }, body, new AbortController().signal))
      events.push(e);
    expect(
      events
        .filter((e) => e.delta?.type === 'text_delta')
        .map((e) => e.delta.text)
        .join(''),
    ).toBe('via the proxy');
    expect(proxy.seen).toEqual([`${server.url}/v1/messages`]);
  });

  it('says which proxy could not be reached, without its password', async () => {
    const closed = createNetServer();
    const port = await listening(closed);
    await new Promise((resolve) => closed.close(resolve));
    process.env.HTTP_PROXY = `http://me:secret@127.0.0.1:${port}`;
    const body = { model: 'm', max_tokens: 10, messages: [], stream: true };
    const err = await postMessagesStream({ apiKey: 'k', baseURL: 'http://127.0.0.1:9', limits: { idleMs: 5000 } }, body, new AbortController().signal).catch(
      (e: Error) => e,
    );
    expect(String((err as Error).message)).toContain(`through the proxy http://127.0.0.1:${port}`);
    expect(String((err as Error).message)).not.toContain('secret');
  });

  it('opens no early connection to the API when a proxy is in the way', async () => {
    const accepted: unknown[] = [];
    const target = createNetServer((s) => {
      accepted.push(s);
      s.destroy();
    });
    const port = await listening(target);
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    startPreconnect(`http://127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
    expect(accepted).toHaveLength(0);
    expect(takePreconnected('http:', '127.0.0.1', port)).toBeUndefined();
  });
});
