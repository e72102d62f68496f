/**
 * The connection to the API, opened by the entry while the code loads: the TCP (and TLS) handshake
 * then overlaps start-up instead of following it. The transport's agents take the socket for their
 * first request to the same origin; a socket for another origin (settings changed the base URL), or
 * one that failed, is never used. It adds no request: nothing is sent until the run asks.
 */
import type { Socket } from 'node:net';
import { getProxyForUrl } from 'proxy-from-env';
import { useExtraCA } from './extra-ca.js';

const KEY = Symbol.for('wicket.preconnected');
/** Where requests go without ANTHROPIC_BASE_URL. */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

interface Preconnected {
  origin: string;
  socket: Socket;
}

type Slot = { [KEY]?: Preconnected };

/** Opens a connection to the base URL's host (ANTHROPIC_BASE_URL, else the API's); never throws. */
export function startPreconnect(baseURL: string | undefined): void {
  try {
    const url = new URL(baseURL || DEFAULT_BASE_URL);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    if (getProxyForUrl(url.href)) return; // the request goes through a proxy, not to this host
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    if (url.protocol === 'https:') useExtraCA();
    const socket =
      url.protocol === 'https:'
        ? process.getBuiltinModule('node:tls').connect({ host, port, servername: isIpLiteral(host) ? undefined : host })
        : process.getBuiltinModule('node:net').connect({ host, port });
    socket.on('error', () => {}); // a refused or failed connection is simply not used
    socket.unref(); // an unused connection must not keep the process alive
    (globalThis as Slot)[KEY] = { origin: originOf(url.protocol, host, port), socket };
  } catch {
    // Not a URL: the client reports that with its own sentence.
  }
}

/** The preconnected socket when it goes to this origin and is still usable; it is handed out once. */
export function takePreconnected(protocol: string, host: string, port: number): Socket | undefined {
  const slot = globalThis as Slot;
  const pre = slot[KEY];
  if (!pre || pre.origin !== originOf(protocol, host.replace(/^\[|\]$/g, ''), port)) return undefined;
  delete slot[KEY];
  if (pre.socket.destroyed) return undefined;
  pre.socket.ref();
  return pre.socket;
}

function originOf(protocol: string, host: string, port: number): string {
  return `${protocol}//${host.toLowerCase()}:${port}`;
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
