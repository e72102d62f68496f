/**
 * Putting one program in the sandbox: the filesystem view worked out afresh for each launch (so a
 * file created since the last command is masked too), the network bridge when domains are allowed,
 * and `finish`, called once the program has exited: configuration it created below the project is
 * moved out (guard.ts) and the mount points it needed are removed (mount-points.ts).
 */
import path from 'node:path';
import { realpathSync } from 'node:fs';
import type { PermissionRules } from '../base/permission-types.js';
import { isInside } from '../base/paths.js';
import { bwrapArgs, bwrapAvailability, socatAvailability } from './bwrap.js';
import { userConfigPaths } from './config-files.js';
import { denyTargets, sandboxDenyRules } from './deny-paths.js';
import { planFilesystem } from './fs-plan.js';
import { checkAfterRun } from './guard.js';
import { leaseMountPoints } from './mount-points.js';
import { networkBridge, proxyEnv } from './network.js';
import { protection } from './protect.js';
import { hostSockets } from './sockets.js';
import { startDomainProxy, type DomainProxy } from './proxy.js';
import { isDomainAllowed, type SandboxSettings } from './settings.js';

export interface SandboxContext {
  cwd: string;
  projectRoot: string;
  additionalDirs: readonly string[];
  homeDir: string;
  wicketHome: string;
  env: Record<string, string | undefined>;
  settings: Record<string, unknown>;
  rules?: PermissionRules | undefined;
  /** Folders the program itself needs (its script's package), shown read-only even under /tmp. */
  programDirs?: readonly string[] | undefined;
}

export interface SandboxLaunch {
  /** bwrap and its arguments, up to `--`: the program and its arguments follow. */
  prefix: string[];
  /** Shell text to run inside before the command (the network bridge), or ''. */
  preamble: string;
  /** Once the program has exited: checks and cleans up; returns notes for the model. */
  finish(): Promise<string[]>;
}

/** The sandbox cannot honour the rules for this launch: nothing may run. */
export class SandboxRefusal extends Error {}

/** How long working out the filesystem view may take before the launch is refused. */
const PLAN_BUDGET_MS = 20_000;

export async function sandboxLaunch(s: SandboxSettings, ctx: SandboxContext): Promise<SandboxLaunch> {
  const bwrap = await bwrapAvailability(s.bwrapPath);
  if (!bwrap.ok) throw new SandboxRefusal(`the sandbox cannot start: ${bwrap.reason}`);
  const deadline = Date.now() + PLAN_BUDGET_MS;
  const roots = writableRoots(s, ctx);
  const cwd = realOr(ctx.cwd);
  const projectRoot = realOr(ctx.projectRoot);
  const guarded = protection({ ...ctx, projectRoot, writableRoots: roots, deadline, mcpDirs: parentsOf(projectRoot) });
  const deny = await denyTargets(sandboxDenyRules(ctx.rules?.deny ?? [], s.denyRead, s.denyWrite), {
    cwd,
    projectRoot,
    homeDir: ctx.homeDir,
    writableRoots: roots,
    deadline,
  });
  if (!s.allowAllUnixSockets) {
    const rule = 'the sandbox (a Unix socket of this machine; sandbox.network.allowUnixSockets lets one through)';
    deny.read.push(...hostSockets(ctx, s.allowUnixSockets).map((p) => ({ path: p, rule })));
  }
  const fs = planFilesystem({ roots, cwd, deny, protection: guarded, visible: (ctx.programDirs ?? []).map(realOr) });
  if (fs.problems.length) throw new SandboxRefusal(`the sandbox cannot honour the rules: ${fs.problems.join('; ')}. Nothing was run.`);
  const env: Record<string, string> = { TMPDIR: '/tmp', WICKET_SANDBOX: '1' };
  let preamble = '';
  let proxyDir: string | undefined;
  if (s.allowedDomains.length) {
    const socat = await socatAvailability(s.socatPath);
    if (!socat.ok) throw new SandboxRefusal(`the sandbox cannot start: ${socat.reason}`);
    const p = await domainProxy(s);
    proxyDir = p.dir;
    Object.assign(env, proxyEnv(s));
    preamble = networkBridge(p.socketPath, socat.path);
  }
  const release = leaseMountPoints(fs.mountPoints);
  let finished: Promise<string[]> | undefined;
  return {
    prefix: [bwrap.path, ...bwrapArgs({ cwd, fs, env, ...(proxyDir ? { proxyDir } : {}) })],
    preamble,
    finish: () =>
      (finished ??= (async () => {
        try {
          return checkAfterRun(guarded.snapshot, { wicketHome: ctx.wicketHome, deadline: Date.now() + PLAN_BUDGET_MS });
        } finally {
          release();
        }
      })()),
  };
}

/**
 * The folders the sandbox may write: the project, the added folders and `allowWrite`, as real
 * paths, those that exist. An added or allowed folder inside the user's configuration folders
 * (`~/.claude`, `~/.wicket`) or inside a `.claude` folder stays read-only.
 */
export function writableRoots(s: Pick<SandboxSettings, 'allowWrite'>, ctx: SandboxContext): string[] {
  const config = userConfigPaths({ ...ctx, mcpDirs: [] })
    .filter((c) => c.kind === 'dir')
    .map((c) => realOr(c.path));
  const project = realOr(ctx.projectRoot);
  const others = [...ctx.additionalDirs, ...s.allowWrite]
    .map(realOr)
    .filter((r) => exists(r) && !config.some((c) => isInside(r, c)) && !r.split(path.sep).includes('.claude'));
  return [...new Set([project, ...others])];
}

let proxy: Promise<DomainProxy> | undefined;
let network: Pick<SandboxSettings, 'allowedDomains' | 'deniedDomains'> = { allowedDomains: [], deniedDomains: [] };
const denials: Array<{ host: string; at: number }> = [];

function domainProxy(s: SandboxSettings): Promise<DomainProxy> {
  network = { allowedDomains: s.allowedDomains, deniedDomains: s.deniedDomains };
  proxy ??= startDomainProxy({
    allows: (host, port) => {
      const ok = isDomainAllowed(host, port, network);
      if (!ok) denials.push({ host, at: Date.now() });
      if (denials.length > 100) denials.splice(0, denials.length - 100);
      return ok;
    },
  });
  return proxy;
}

/** Hosts the proxy refused since `since` (ms epoch), for a note to the model. */
export function deniedHostsSince(since: number): string[] {
  return [...new Set(denials.filter((d) => d.at >= since).map((d) => d.host))];
}

/** Stop the proxy (tests, shutdown). */
export async function stopSandboxProxy(): Promise<void> {
  const p = proxy;
  proxy = undefined;
  if (p) await (await p).close();
}

function parentsOf(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function exists(p: string): boolean {
  try {
    realpathSync.native(p);
    return true;
  } catch {
    return false;
  }
}
