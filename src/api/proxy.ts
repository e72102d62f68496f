/**
 * The proxy a request to the API goes through, from the environment as curl and npm read it:
 * HTTPS_PROXY / HTTP_PROXY (or lower case, or ALL_PROXY) by the URL's scheme, unless NO_PROXY
 * names the host. The agents that speak to proxies (a CONNECT tunnel for https, absolute-form
 * requests for http) load only when a proxy applies.
 */
import type { Agent } from 'node:http';
import { getProxyForUrl } from 'proxy-from-env';
import { importModule } from '../base/lib/import-module.js';
import { useExtraCA } from './extra-ca.js';

/** The proxy set for this URL: none, its URL, or `bad` when the variable is not a URL. */
function configured(url: URL): URL | 'bad' | undefined {
  const raw = getProxyForUrl(url.href);
  if (!raw) return undefined;
  try {
    return new URL(raw);
  } catch {
    return 'bad';
  }
}

/** The proxy's URL for this request, or undefined when it goes direct (proxyProblem reports a bad one first). */
export function proxyFor(url: URL): URL | undefined {
  const proxy = configured(url);
  return proxy === 'bad' ? undefined : proxy;
}

/** Why the proxy for this URL cannot be used, or undefined when there is none or it can. */
export function proxyProblem(url: URL): string | undefined {
  const proxy = configured(url);
  if (!proxy) return undefined;
  const source = `the proxy for ${url.protocol.slice(0, -1)} requests (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY)`;
  if (proxy === 'bad') return `${source} is not a URL`; // not echoed: it may hold a password
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') return `${source} must be an http or https proxy, got ${proxy.protocol}//${proxy.host}`;
  return undefined;
}

/** The proxy's address for messages: no user name or password. */
export function describeProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

const agents = new Map<string, Agent>();

/** A keep-alive agent that reaches `protocol` URLs through `proxy` (credentials in its URL are sent to it). */
export async function proxyAgent(protocol: string, proxy: URL): Promise<Agent> {
  const key = `${protocol} ${proxy.href}`;
  const known = agents.get(key);
  if (known) return known;
  useExtraCA(); // the tunnel's TLS, and the proxy's own when it is an https one
  const options = { keepAlive: true, scheduling: 'lifo' as const, timeout: 5000 };
  let agent: Agent;
  if (protocol === 'https:') {
    const { HttpsProxyAgent } = await importModule<typeof import('https-proxy-agent')>('https-proxy-agent');
    agent = new HttpsProxyAgent(proxy, options);
  } else {
    const { HttpProxyAgent } = await importModule<typeof import('http-proxy-agent')>('http-proxy-agent');
    agent = new HttpProxyAgent(proxy, options);
  }
  agents.set(key, agent);
  return agent;
}

const dispatchers = new Map<string, unknown>();

/**
 * For `fetch` (WebFetch): an undici dispatcher that goes through `proxy` (a CONNECT tunnel for
 * https). The undici package is the version Node 20 carries, so its dispatcher fits Node's fetch.
 */
export async function proxyDispatcher(proxy: URL): Promise<unknown> {
  const known = dispatchers.get(proxy.href);
  if (known) return known;
  const { ProxyAgent } = await importModule<typeof import('undici')>('undici');
  const dispatcher = new ProxyAgent({ uri: proxy.href, proxyTls: { timeout: 10_000 } });
  dispatchers.set(proxy.href, dispatcher);
  return dispatcher;
}
