/**
 * The host's Unix sockets, hidden from the sandbox. A socket file stays connectable on a read-only
 * mount, and behind some of them is a way out of any sandbox: the Docker or Podman daemon, the
 * session bus, an ssh or gpg agent. The sandbox replaces each socket it finds with an empty file:
 * those under /run (and /var/run, $XDG_RUNTIME_DIR), those the environment names (SSH_AUTH_SOCK,
 * DOCKER_HOST, DBUS_*_BUS_ADDRESS) and those container tools keep in the home folder. The sandbox's
 * /tmp is its own already. `sandbox.network.allowUnixSockets` names sockets to leave reachable;
 * `allowAllUnixSockets: true` leaves them all. Sockets in the project are the project's own, and
 * stay. (Claude Code blocks socket calls with seccomp instead; the effect on these paths is the same.)
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

const MAX_DEPTH = 6;
const MAX_ENTRIES = 20_000;

/** Where container tools keep their sockets in the home folder. */
const HOME_PLACES = ['.docker', '.gnupg', '.colima', '.rd', '.orbstack', '.lima', '.local/share/containers', '.ssh', '.1password', '.config/gnupg'];

export function hostSockets(ctx: { homeDir: string; env: Record<string, string | undefined> }, allowed: readonly string[]): string[] {
  const found = new Set<string>();
  const budget = { left: MAX_ENTRIES };
  const places = ['/run', '/var/run', ctx.env.XDG_RUNTIME_DIR, ...HOME_PLACES.map((p) => path.join(ctx.homeDir, p))];
  for (const place of new Set(places.filter((p): p is string => !!p).map(realOr))) walk(place, 0, found, budget);
  for (const p of envSockets(ctx.env)) if (isSocket(p)) found.add(realOr(p));
  const keep = new Set(allowed.map(realOr));
  return [...found].filter((p) => !keep.has(p) && !p.startsWith('/tmp/'));
}

function envSockets(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  if (env.SSH_AUTH_SOCK) out.push(env.SSH_AUTH_SOCK);
  const docker = /^unix:\/\/(.+)$/.exec(env.DOCKER_HOST ?? '');
  if (docker) out.push(docker[1]!);
  for (const key of ['DBUS_SESSION_BUS_ADDRESS', 'DBUS_SYSTEM_BUS_ADDRESS']) {
    for (const m of (env[key] ?? '').matchAll(/unix:path=([^,;]+)/g)) out.push(m[1]!);
  }
  return out;
}

function walk(dir: string, depth: number, found: Set<string>, budget: { left: number }): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (--budget.left < 0) return;
    const p = path.join(dir, name);
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSocket()) found.add(p);
    else if (st.isDirectory() && depth < MAX_DEPTH) walk(p, depth + 1, found, budget);
  }
}

function isSocket(p: string): boolean {
  try {
    return statSync(p).isSocket();
  } catch {
    return false;
  }
}

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}
