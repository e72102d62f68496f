/**
 * WebFetch and the proxy variables, in process: NO_PROXY, and an unreachable proxy named without its
 * password. (A page fetched through a CONNECT tunnel: test/integration/web-fetch-proxy.test.ts.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageCache } from '../../../src/tools/web-fetch/cache.js';
import { createWebFetchTool, type WebFetchOutput } from '../../../src/tools/web-fetch/index.js';
import type { LookupFn } from '../../../src/tools/web-fetch/private-address.js';
import type { ToolContext } from '../../../src/base/tool.js';
import { createToolEnv, resultText, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'];
const saved: Record<string, string | undefined> = {};
const closers: Array<() => unknown> = [];
let env: ToolEnv;

beforeEach(() => {
  for (const k of VARS) {
    saved[k] = process.env[k];
    delete process.env[k];
  }
  env = createToolEnv();
});
afterEach(async () => {
  for (const k of VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  for (const c of closers.splice(0).reverse()) await c();
  env.cleanup();
});

/** This machine cannot resolve the names: only the proxy can reach them. */
const lookup: LookupFn = async (host) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** A forward proxy that answers for docs.proxied.test itself, recording each request. */
async function proxy(): Promise<{ url: string; seen: Array<{ url: string; auth?: string }> }> {
  const seen: Array<{ url: string; auth?: string }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', ...(req.headers['proxy-authorization'] ? { auth: String(req.headers['proxy-authorization']) } : {}) });
    if (!req.url?.startsWith('http://docs.proxied.test/')) return void res.writeHead(502).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Proxied docs</h1><p>Only the proxy can reach this.</p></body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function fetchUrl(url: string) {
  const answer: NonNullable<ToolContext['querySmallModel']> = async (prompt) =>
    prompt.includes('Proxied docs') ? 'It says only the proxy can reach it.' : 'nothing';
  const tool = createWebFetchTool({ lookup, cache: new PageCache() });
  const r = await tryRunTool(tool, { url, prompt: 'What does it say?' }, env.nextCall({ querySmallModel: answer }), env.state);
  if (!r.ok) throw new Error(`refused at ${r.stage}: ${r.message}`);
  return { output: r.output as WebFetchOutput, text: resultText(r.modelResult) };
}

describe('WebFetch through a proxy', () => {
  it('NO_PROXY sends the request direct, where the name does not resolve', async () => {
    const p = await proxy();
    process.env.HTTPS_PROXY = p.url;
    process.env.NO_PROXY = '.proxied.test';
    const r = await fetchUrl('http://docs.proxied.test/guide');
    expect(r.output).toMatchObject({ kind: 'error', reason: 'dns' });
    expect(p.seen).toEqual([]);
  });

  it('an unreachable proxy is named, without its password', async () => {
    const p = await proxy();
    const port = new URL(p.url).port;
    await closers.pop()!(); // the proxy is gone
    process.env.HTTPS_PROXY = `http://me:secret@127.0.0.1:${port}`;
    const r = await fetchUrl('http://docs.proxied.test/guide');
    expect(r.output.kind).toBe('error');
    expect(r.text).toContain(`(through the proxy http://127.0.0.1:${port})`);
    expect(r.text).not.toContain('secret');
  });
});
