/**
 * bubblewrap (Linux) command lines.
 *
 * The sandbox: the whole filesystem read-only; a private /tmp; writable the roots (the project, the
 * added folders, `allowWrite`) and the pinned folders; read-only again the protected paths and the
 * Edit-denied ones; hidden (an empty read-only folder or file in their place) the Read-denied paths
 * and the configuration that does not exist yet; no network (a new network namespace with only
 * loopback), except through the domain proxy when domains are allowed. Mounts are made from the
 * shallowest path to the deepest, and at one path writable before read-only before hidden, so a
 * deeper or stricter rule always lands last.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FsPlan } from './fs-plan.js';
export { bwrapAvailability, socatAvailability, type Availability } from './availability.js';

export interface BwrapPlan {
  cwd: string;
  fs: Pick<FsPlan, 'writable' | 'readOnly' | 'hideDirs' | 'hideFiles'> & Partial<Pick<FsPlan, 'visible'>>;
  /** Directory of the proxy socket, bound into the sandbox; absent: no network at all. */
  proxyDir?: string;
  env: Record<string, string>;
}

type Op = { path: string; rank: number; args: string[] };

/** The arguments after the bwrap program itself, up to and including `--`. */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...procReadOnly(), '--tmpfs', '/tmp'];
  const ops: Op[] = [
    ...plan.fs.writable.map((p) => ({ path: p, rank: 0, args: ['--bind', p, p] })),
    ...plan.fs.readOnly.map((p) => ({ path: p, rank: 1, args: ['--ro-bind', p, p] })),
    ...(plan.fs.visible ?? []).map((p) => ({ path: p, rank: 1, args: ['--ro-bind', p, p] })),
    ...plan.fs.hideDirs.map((p) => ({ path: p, rank: 2, args: ['--tmpfs', p, '--remount-ro', p] })),
    ...plan.fs.hideFiles.map((p) => ({ path: p, rank: 2, args: ['--ro-bind', emptyFile(), p] })),
  ];
  ops.sort((a, b) => depth(a.path) - depth(b.path) || a.rank - b.rank);
  for (const op of ops) args.push(...op.args);
  if (plan.proxyDir) args.push('--ro-bind', plan.proxyDir, plan.proxyDir);
  args.push('--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent', '--new-session', ...capabilities());
  for (const [k, v] of Object.entries(plan.env)) args.push('--setenv', k, v);
  args.push('--chdir', plan.cwd, '--');
  return args;
}

/**
 * The kernel's writable knobs in the new /proc stay read-only: uid 0 may write `kernel.core_pattern`
 * (a program the kernel runs outside any sandbox) even without capabilities.
 */
function procReadOnly(): string[] {
  return ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus'].filter((p) => existsSync(p)).flatMap((p) => ['--ro-bind', p, p]);
}

/**
 * Run as root, bubblewrap keeps every capability, with which a command could simply unmount the
 * masks (or create a device node and read the disk). Only what root needs for ordinary file work
 * stays: ownership and permission bits (not CAP_DAC_READ_SEARCH, which opens files by handle past
 * any mount), signals, changing user. As another user bubblewrap drops them all anyway.
 */
function capabilities(): string[] {
  const keep = ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_FSETID', 'CAP_KILL', 'CAP_SETGID', 'CAP_SETUID', 'CAP_NET_BIND_SERVICE'];
  return ['--cap-drop', 'ALL', ...(process.getuid?.() === 0 ? keep.flatMap((c) => ['--cap-add', c]) : [])];
}

function depth(p: string): number {
  return path.resolve(p).split(path.sep).filter(Boolean).length;
}

let empty: string | undefined;

/**
 * An empty read-only file to mount over what must look empty: one per user, kept in the temporary
 * folder (a folder of ours, checked before use: owned by us, not a link, not writable by others).
 */
export function emptyFile(): string {
  if (empty && isEmptyFile(empty)) return empty;
  const dir = path.join(tmpdir(), `wicket-sandbox-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // there already
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a folder of this user's: the sandbox will not use it`);
  }
  const file = path.join(dir, 'empty');
  if (!isEmptyFile(file)) {
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, '');
    chmodSync(tmp, 0o444);
    renameSync(tmp, file);
  }
  return (empty = file);
}

function isEmptyFile(p: string): boolean {
  try {
    const st = lstatSync(p);
    return st.isFile() && st.size === 0 && (st.mode & 0o222) === 0;
  } catch {
    return false;
  }
}
