/**
 * The OS sandbox for Bash (Linux, bubblewrap). `decideSandbox` says whether a call runs inside it,
 * outside it, or not at all; `sandboxLaunch` gives the program prefix, shell preamble and environment
 * that put a command inside it.
 */
import { wildcardMatch } from '../permissions/wildcard.js';
import { bwrapArgs, bwrapAvailability, socatAvailability } from './bwrap.js';
import { startDomainProxy, type DomainProxy } from './proxy.js';
import { isDomainAllowed, type SandboxSettings } from './settings.js';

export { readSandboxSettings, isDomainAllowed, domainMatches, type SandboxSettings } from './settings.js';
export { bwrapAvailability, socatAvailability } from './bwrap.js';

export type SandboxDecision =
  | { kind: 'off' }
  | { kind: 'sandboxed' }
  | { kind: 'unsandboxed'; note: string }
  | { kind: 'refused'; reason: string };

export interface SandboxRequest {
  dangerouslyDisableSandbox?: boolean | undefined;
  /** The commands the line runs, as text (for excludedCommands). */
  commands: string[];
}

export async function decideSandbox(s: SandboxSettings, req: SandboxRequest): Promise<SandboxDecision> {
  if (!s.enabled) return { kind: 'off' };
  if (req.dangerouslyDisableSandbox) {
    if (!s.allowUnsandboxedCommands) {
      return { kind: 'refused', reason: 'sandbox.allowUnsandboxedCommands is false: commands may not run outside the sandbox' };
    }
    return { kind: 'unsandboxed', note: 'ran outside the sandbox (dangerouslyDisableSandbox)' };
  }
  if (isExcludedCommand(req.commands, s.excludedCommands)) return { kind: 'unsandboxed', note: 'ran outside the sandbox (sandbox.excludedCommands)' };
  const problem = await unavailability(s);
  if (!problem) return { kind: 'sandboxed' };
  if (!s.failIfUnavailable) return { kind: 'unsandboxed', note: `the sandbox is unavailable (${problem}); ran without it because sandbox.failIfUnavailable is false` };
  return {
    kind: 'refused',
    reason: `sandbox.enabled is true but the sandbox cannot start: ${problem}. Nothing was run. Set sandbox.failIfUnavailable to false to run commands without it.`,
  };
}

async function unavailability(s: SandboxSettings): Promise<string | undefined> {
  if (process.platform !== 'linux') return `the sandbox needs Linux with bubblewrap (this is ${process.platform})`;
  const bwrap = await bwrapAvailability(s.bwrapPath);
  if (!bwrap.ok) return bwrap.reason;
  if (s.allowedDomains.length) {
    const socat = await socatAvailability(s.socatPath);
    if (!socat.ok) return socat.reason;
  }
  return undefined;
}

/** `docker`, `docker *`, `docker:*`, `npm run e2e*`: prefixes with word boundary, `*` anywhere. */
export function isExcludedCommand(commands: string[], excluded: string[]): boolean {
  return excluded.some((pattern) => {
    const p = pattern.trim().replace(/(:\*| \*)$/, '');
    return commands.some((c) => wildcardMatch(p, c) || wildcardMatch(`${p} *`, c));
  });
}

export interface SandboxLaunch {
  prefix: string[];
  preamble: string;
}

const PROXY_PORT = 3128;
let proxy: Promise<DomainProxy> | undefined;
let network: Pick<SandboxSettings, 'allowedDomains' | 'deniedDomains'> = { allowedDomains: [], deniedDomains: [] };
const denials: Array<{ host: string; at: number }> = [];

/** Hosts the proxy refused since `since` (ms epoch), for a note to the model. */
export function deniedHostsSince(since: number): string[] {
  return [...new Set(denials.filter((d) => d.at >= since).map((d) => d.host))];
}

export async function sandboxLaunch(
  s: SandboxSettings,
  ctx: { cwd: string; projectRoot: string; additionalDirs: readonly string[] },
): Promise<SandboxLaunch> {
  const env: Record<string, string> = { TMPDIR: '/tmp', WICKET_SANDBOX: '1' };
  let proxyDir: string | undefined;
  let preamble = '';
  if (s.allowedDomains.length) {
    network = { allowedDomains: s.allowedDomains, deniedDomains: s.deniedDomains };
    proxy ??= startDomainProxy({
      allows: (host, port) => {
        const ok = isDomainAllowed(host, port, network);
        if (!ok) denials.push({ host, at: Date.now() });
        if (denials.length > 100) denials.splice(0, denials.length - 100);
        return ok;
      },
    });
    const p = await proxy;
    proxyDir = p.dir;
    const url = `http://127.0.0.1:${PROXY_PORT}`;
    for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) env[k] = url;
    env.NO_PROXY = env.no_proxy = 'localhost,127.0.0.1,::1';
    preamble = networkBridge(p.socketPath, s.socatPath);
  }
  const writable = [ctx.projectRoot, ...ctx.additionalDirs, ...s.allowWrite];
  return {
    prefix: bwrapArgs({ cwd: ctx.cwd, writable, denyWrite: s.denyWrite, denyRead: s.denyRead, env, ...(proxyDir ? { proxyDir } : {}) }, s.bwrapPath),
    preamble,
  };
}

/**
 * Inside the namespace: socat on 127.0.0.1:3128 forwarding to the proxy socket; wait until it listens
 * (polling without starting processes: fd 9 is the lifeline, on which `read -t` only waits).
 */
function networkBridge(socketPath: string, socatPath: string): string {
  const quoted = `'${socketPath.replace(/'/g, `'\\''`)}'`;
  return (
    `${shellQuote(socatPath)} TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${quoted} >/dev/null 2>&1 & disown; ` +
    `for ((_w=0; _w<1000; _w++)); do { exec 8<>/dev/tcp/127.0.0.1/${PROXY_PORT}; } 2>/dev/null && { exec 8<&-; break; }; ` +
    `read -r -t 0.003 -u 9 _ 2>/dev/null; done; unset _w _; `
  );
}

/** One shell word, quoted only when it needs to be. */
export function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Stop the proxy (tests, shutdown). */
export async function stopSandboxProxy(): Promise<void> {
  const p = proxy;
  proxy = undefined;
  if (p) await (await p).close();
}
