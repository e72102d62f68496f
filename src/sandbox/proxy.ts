/**
 * The sandbox's only way out: an HTTP proxy on a unix socket, outside the sandbox, that lets through
 * connections to allowed domains and refuses the rest with a 403 the command can print.
 *
 * Inside the sandbox (a network namespace with only loopback), socat listens on 127.0.0.1 and
 * forwards each connection to this socket; HTTP_PROXY/HTTPS_PROXY point there. Supported:
 * `CONNECT host:port` (HTTPS and any TLS, also git and npm) and absolute-form plain HTTP requests.
 * Not supported: SOCKS, raw TCP that ignores proxy variables, DNS lookups from inside the sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ProxyPolicy {
  /** Decide one destination. */
  allows(host: string, port: number): boolean;
}

export interface DomainProxy {
  socketPath: string;
  /** Directory holding the socket (bound into the sandbox). */
  dir: string;
  close(): Promise<void>;
}

const MAX_HEAD = 64 * 1024;
/** How long a destination may take to accept the connection. */
const CONNECT_TIMEOUT_MS = 30_000;

export async function startDomainProxy(policy: ProxyPolicy): Promise<DomainProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-proxy-'));
  const socketPath = path.join(dir, 'proxy.sock');
  const server = net.createServer((socket) => handle(socket, policy));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  server.unref();
  return {
    socketPath,
    dir,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}

function handle(client: net.Socket, policy: ProxyPolicy): void {
  let head = Buffer.alloc(0);
  client.on('error', () => client.destroy());
  const onData = (chunk: Buffer): void => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > MAX_HEAD) refuse(client, 431, 'request head too large');
      return;
    }
    client.off('data', onData);
    client.pause();
    route(client, head.subarray(0, end).toString('latin1'), head.subarray(end + 4), policy);
  };
  client.on('data', onData);
}

function route(client: net.Socket, headText: string, rest: Buffer, policy: ProxyPolicy): void {
  const [requestLine = '', ...headers] = headText.split('\r\n');
  const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
  const dest = method.toUpperCase() === 'CONNECT' ? parseAuthority(target, 443) : parseAbsolute(target);
  if (!dest) return refuse(client, 400, `cannot read the destination of "${requestLine.slice(0, 100)}"`);
  if (!policy.allows(dest.host, dest.port)) {
    return refuse(client, 403, `${dest.host} is not in sandbox.network.allowedDomains`);
  }
  const upstream = net.connect({ port: dest.port, host: dest.host, autoSelectFamily: true });
  upstream.setTimeout(CONNECT_TIMEOUT_MS, () => {
    if (upstream.connecting) {
      upstream.destroy();
      refuse(client, 504, `${dest.host}:${dest.port} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`);
    }
  });
  upstream.on('error', (err: NodeJS.ErrnoException) =>
    client.writable && upstream.bytesWritten === 0
      ? refuse(client, 502, `cannot connect to ${dest.host}:${dest.port} (${err.code ?? err.message})`)
      : client.destroy(),
  );
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  upstream.on('connect', () => {
    upstream.setTimeout(0);
    if (method.toUpperCase() === 'CONNECT') client.write(`${version} 200 Connection Established\r\n\r\n`);
    else {
      const kept = headers.filter((h) => !/^(proxy-connection|connection|keep-alive):/i.test(h));
      upstream.write(`${method} ${dest.path} ${version}\r\n${[...kept, 'Connection: close'].join('\r\n')}\r\n\r\n`, 'latin1');
    }
    if (rest.length) upstream.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
}

interface Destination {
  host: string;
  port: number;
  path: string;
}

function parseAuthority(authority: string, defaultPort: number): Destination | undefined {
  const m = /^(\[[^\]]+\]|[^:/]+)(?::(\d+))?$/.exec(authority);
  if (!m) return undefined;
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port: m[2] ? Number(m[2]) : defaultPort, path: '/' };
}

function parseAbsolute(target: string): Destination | undefined {
  try {
    const url = new URL(target);
    if (url.protocol !== 'http:') return undefined;
    return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || 80), path: `${url.pathname}${url.search}` };
  } catch {
    return undefined;
  }
}

function refuse(client: net.Socket, status: number, message: string): void {
  const body = `wicket sandbox: ${message}\n`;
  const reason = { 403: 'Forbidden', 431: 'Request Header Fields Too Large', 502: 'Bad Gateway', 504: 'Gateway Timeout' }[status] ?? 'Bad Request';
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nX-Wicket-Sandbox: ${message.replace(/[\r\n]/g, ' ')}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
