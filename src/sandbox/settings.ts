/**
 * The `sandbox` settings keys, as Claude Code names them (reference/claude-code.md §10), read loosely
 * from merged settings: unknown keys are ignored, wrong types fall back to the defaults.
 * Paths: `/abs`, `//abs`, `~/x`, and relative (`./x`, `x`) against the project root.
 */
import path from 'node:path';

export interface SandboxSettings {
  enabled: boolean;
  /** When the sandbox is on but cannot start: refuse (true, the default here) or run unsandboxed (false). */
  failIfUnavailable: boolean;
  /** May a call ask to run outside the sandbox with dangerouslyDisableSandbox? */
  allowUnsandboxedCommands: boolean;
  /** Sandboxed commands need no approval (deny and ask rules still apply). */
  autoAllowBashIfSandboxed: boolean;
  /** Command prefixes that always run outside the sandbox (`docker`, `docker compose:*`). */
  excludedCommands: string[];
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
  allowedDomains: string[];
  deniedDomains: string[];
  /** Unix sockets on this machine that stay reachable (all others are hidden: sockets.ts). */
  allowUnixSockets: string[];
  allowAllUnixSockets: boolean;
  /** Programs to use (`sandbox.bwrapPath`, `sandbox.socatPath`). */
  bwrapPath: string;
  socatPath: string;
}

export function readSandboxSettings(settings: Record<string, unknown>, ctx: { projectRoot: string; homeDir: string }): SandboxSettings {
  const sb = record(settings.sandbox);
  const fsKeys = record(sb.filesystem);
  const net = record(sb.network);
  const paths = (v: unknown): string[] => strings(v).map((p) => resolveSandboxPath(p, ctx));
  return {
    enabled: sb.enabled === true,
    failIfUnavailable: sb.failIfUnavailable !== false,
    allowUnsandboxedCommands: sb.allowUnsandboxedCommands !== false,
    autoAllowBashIfSandboxed: sb.autoAllowBashIfSandboxed !== false,
    excludedCommands: strings(sb.excludedCommands),
    allowWrite: paths(fsKeys.allowWrite),
    denyWrite: paths(fsKeys.denyWrite),
    denyRead: paths(fsKeys.denyRead),
    allowedDomains: strings(net.allowedDomains).map((d) => d.toLowerCase()),
    deniedDomains: strings(net.deniedDomains).map((d) => d.toLowerCase()),
    allowUnixSockets: paths(net.allowUnixSockets),
    allowAllUnixSockets: net.allowAllUnixSockets === true,
    bwrapPath: typeof sb.bwrapPath === 'string' && sb.bwrapPath ? sb.bwrapPath : 'bwrap',
    socatPath: typeof sb.socatPath === 'string' && sb.socatPath ? sb.socatPath : 'socat',
  };
}

export function resolveSandboxPath(p: string, ctx: { projectRoot: string; homeDir: string }): string {
  if (p === '~') return ctx.homeDir;
  if (p.startsWith('~/')) return path.join(ctx.homeDir, p.slice(2));
  if (p.startsWith('//')) return path.resolve(p.slice(1));
  if (path.isAbsolute(p)) return path.resolve(p);
  return path.resolve(ctx.projectRoot, p);
}

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/** `example.com` exactly; `*.example.com` any subdomain (not the apex); `*` everything; `host:443` one port. */
export function domainMatches(host: string, port: number, pattern: string): boolean {
  const m = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(pattern.trim().toLowerCase());
  if (!m) return false;
  if (m[2] !== undefined && Number(m[2]) !== port) return false;
  const h = host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
  const p = m[1]!.replace(/^\[(.*)\]$/, '$1');
  if (p === '*') return true;
  if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
  return h === p;
}

export function isDomainAllowed(host: string, port: number, s: Pick<SandboxSettings, 'allowedDomains' | 'deniedDomains'>): boolean {
  if (s.deniedDomains.some((d) => domainMatches(host, port, d))) return false;
  return s.allowedDomains.some((d) => domainMatches(host, port, d));
}
