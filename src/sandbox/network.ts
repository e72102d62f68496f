/**
 * The sandbox's way out when `allowedDomains` is set: the domain proxy (proxy.ts) outside, socat
 * inside listening on 127.0.0.1:3128 and carrying each connection to the proxy's socket, and the
 * proxy variables pointing there.
 *
 * NO_PROXY lists the loopback names (a command talks directly to a server it started itself in the
 * sandbox), except those that allowedDomains allows: `"allowedDomains": ["localhost"]` means the
 * machine's own localhost, which the sandbox reaches only through the proxy. (Direct, such a name
 * reaches the sandbox's empty loopback, and the connection is refused.)
 */
import { isDomainAllowed, type SandboxSettings } from './settings.js';

export const PROXY_PORT = 3128;
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
/** How long the command waits for socat to listen before it goes on without network. */
const BRIDGE_WAIT_S = 15;

export function proxyEnv(s: Pick<SandboxSettings, 'allowedDomains' | 'deniedDomains'>): Record<string, string> {
  const env: Record<string, string> = {};
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) env[k] = url;
  const direct = LOOPBACK.filter((h) => !isDomainAllowed(h, 80, s) && !isDomainAllowed(h, 443, s));
  env.NO_PROXY = env.no_proxy = direct.join(',');
  return env;
}

/**
 * Shell text run inside the sandbox before the command: socat on 127.0.0.1:3128 forwarding to the
 * proxy socket, then wait until it listens. If socat dies or does not listen in time, the command
 * is told why on stderr and runs without network. Between tries it waits with `read -t` on fd 9
 * (the lifeline, on which nothing is ever written) when there is one, else with `sleep`.
 */
export function networkBridge(socketPath: string, socatPath: string): string {
  const sock = shellQuote(socketPath);
  return (
    `${shellQuote(socatPath)} TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${sock} >/dev/null 2>/tmp/.wicket-socat.err & ` +
    `_wp=$!; disown; _wd=$((SECONDS + ${BRIDGE_WAIT_S})); _wok=; ` +
    `while ((SECONDS < _wd)); do { exec 8<>/dev/tcp/127.0.0.1/${PROXY_PORT}; } 2>/dev/null && { exec 8<&-; _wok=1; break; }; ` +
    `kill -0 "$_wp" 2>/dev/null || break; ` +
    `{ read -r -t 0.01 -u 9 _ || [ $? -gt 128 ] || sleep 0.01; } 2>/dev/null; done; ` +
    `[ -n "$_wok" ] || echo "wicket sandbox: the network bridge did not start ($(head -c 300 /tmp/.wicket-socat.err 2>/dev/null || true)); this command has no network" >&2; ` +
    `unset _wp _wd _wok _; `
  );
}

/** One shell word, quoted only when it needs to be. */
export function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
