/**
 * bubblewrap (Linux) command lines and feature detection.
 *
 * The sandbox: the whole filesystem read-only; writable only the project, the additional directories
 * and `allowWrite` paths, minus `denyWrite` and the protected files (editor and agent settings, git
 * hooks and config, shell start-up files); a private /tmp; `denyRead` paths hidden; no network (a new
 * network namespace with only loopback), except through the domain proxy when domains are allowed.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { execaLib } from '../base/lib/execa-lib.js';

export interface BwrapPlan {
  cwd: string;
  writable: string[];
  denyWrite: string[];
  denyRead: string[];
  /** Directory of the proxy socket, bound into the sandbox; absent: no network at all. */
  proxyDir?: string;
  env: Record<string, string>;
}

/** Inside writable roots, kept read-only when they exist (reference/claude-code.md §10). */
const PROTECTED = ['.git/hooks', '.git/config', '.claude', '.mcp.json', '.vscode', '.idea', '.gitmodules',
  '.bashrc', '.bash_profile', '.profile', '.zshrc', '.zprofile', '.gitconfig', '.envrc'];

export function bwrapArgs(plan: BwrapPlan, bwrapPath = 'bwrap'): string[] {
  const args = [bwrapPath, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const writable = unique(plan.writable.filter(exists));
  for (const dir of writable) args.push('--bind', dir, dir);
  const readOnly = unique([...plan.denyWrite, ...writable.flatMap((d) => PROTECTED.map((p) => path.join(d, p)))].filter(exists));
  for (const p of readOnly) args.push('--ro-bind', p, p);
  for (const p of unique(plan.denyRead.filter(exists))) {
    if (statSync(p).isDirectory()) args.push('--tmpfs', p, '--remount-ro', p);
    else args.push('--ro-bind', '/dev/null', p);
  }
  if (plan.proxyDir) args.push('--ro-bind', plan.proxyDir, plan.proxyDir);
  args.push('--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent');
  for (const [k, v] of Object.entries(plan.env)) args.push('--setenv', k, v);
  args.push('--chdir', plan.cwd, '--');
  return args;
}

function exists(p: string): boolean {
  return existsSync(p);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs.map((x) => path.resolve(x)))];
}

export type Availability = { ok: true } | { ok: false; reason: string };

const checks = new Map<string, Promise<Availability>>();

/** Can bubblewrap create the namespaces we need here? Checked once per program path. */
export function bwrapAvailability(bwrapPath = 'bwrap'): Promise<Availability> {
  return once(`bwrap:${bwrapPath}`, () =>
    probe(
      bwrapPath,
      ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--die-with-parent', 'true'],
      `bubblewrap (${bwrapPath}) is not installed; install it (apt-get install bubblewrap) or turn sandbox.enabled off`,
      'bubblewrap cannot create namespaces here (user namespaces may be disabled)',
    ),
  );
}

/** socat carries connections from inside the sandbox to the proxy. */
export function socatAvailability(socatPath = 'socat'): Promise<Availability> {
  return once(`socat:${socatPath}`, () =>
    probe(socatPath, ['-V'], `socat (${socatPath}) is not installed; it is needed for sandbox.network.allowedDomains (apt-get install socat)`, 'socat does not run'),
  );
}

function once(key: string, run: () => Promise<Availability>): Promise<Availability> {
  let hit = checks.get(key);
  if (!hit) checks.set(key, (hit = run()));
  return hit;
}

async function probe(file: string, args: string[], missing: string, failing: string): Promise<Availability> {
  try {
    const { execa } = await execaLib();
    const r = await execa(file, args, { reject: false, timeout: 10_000, stdin: 'ignore' });
    if (r.exitCode === 0) return { ok: true };
    if ((r as { code?: string }).code === 'ENOENT' || /ENOENT/.test(String(r.message ?? ''))) return { ok: false, reason: missing };
    return { ok: false, reason: `${failing}: ${String(r.stderr ?? '').trim().slice(0, 300)}` };
  } catch {
    return { ok: false, reason: missing };
  }
}
