/**
 * Snapshots go with their session (`cleanupPeriodDays`, session/cleanup.ts): the snapshots of a
 * removed session, and any older than the period, are dropped from every project's shadow
 * repository; and each project's repository is kept under a size cap (`WICKET_SNAPSHOT_MAX_MB`,
 * default 1024 MB) by dropping its oldest snapshots first, the running sessions' last. Git then
 * removes the objects no snapshot names. A repository left without snapshots is removed whole, unless
 * a scan used it (or made it) in the last hour (the app scans ahead, and a scan is named as a snapshot
 * only later).
 * Runs at most once a day unless sessions were removed. Never throws.
 */
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runGit, shadowEnv } from './shadow-git-run.js';
import { refSession, snapshotsRoot, USED_STAMP } from './shadow-git.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_CAP_MB = 1024;
/** A repository a scan used this recently is never removed whole. */
const IN_USE_MS = 60 * 60 * 1000;

export interface PruneOptions {
  /** Sessions removed by the cleanup: their snapshots go. */
  removed: readonly string[];
  /** Snapshots older than this (ms since 1970) go. */
  cutoffMs: number;
  /** Sessions whose snapshots stay whatever their age (the one starting, the one it resumes). */
  keep: readonly string[];
  /** Bytes a project's repository may take. */
  capBytes?: number;
  now?: number;
  /** Run even if a prune ran in the last day. */
  always?: boolean;
}

/** The per-project cap in bytes, from `WICKET_SNAPSHOT_MAX_MB` (a positive number) or the default. */
export function snapshotCapBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.WICKET_SNAPSHOT_MAX_MB);
  return Math.round((Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_CAP_MB) * 1024 * 1024);
}

interface Ref {
  name: string;
  session: string;
  time: number;
}

export async function pruneSnapshots(wicketHome: string, o: PruneOptions): Promise<void> {
  const root = snapshotsRoot(wicketHome);
  const stamp = path.join(root, '.pruned');
  const now = o.now ?? Date.now();
  try {
    if (!existsSync(root)) return;
    if (!o.always && !o.removed.length && now - statSync(stamp).mtimeMs < DAY_MS) return;
  } catch {
    // no stamp yet: prune now
  }
  try {
    writeFileSync(stamp, '');
    utimesSync(stamp, now / 1000, now / 1000);
  } catch {
    // the stamp is only an economy
  }
  for (const name of entries(root)) {
    const dir = path.join(root, name);
    if (!existsSync(path.join(dir, 'HEAD'))) continue;
    await pruneRepo(dir, o).catch(() => undefined);
  }
}

/**
 * Whether a scan started in the repository since `since` (its `wicket-used` stamp, shadow-git.ts), or
 * the repository was made since: a scan's first `git init` writes HEAD before the scan can stamp it,
 * and a prune at that moment would take the folder from under it (the session then had no snapshot).
 */
function usedSince(gitDir: string, since: number): boolean {
  return [USED_STAMP, 'HEAD'].some((name) => {
    try {
      return statSync(path.join(gitDir, name)).mtimeMs >= since;
    } catch {
      return false;
    }
  });
}

async function pruneRepo(gitDir: string, o: PruneOptions): Promise<void> {
  const env = { ...shadowEnv(undefined), GIT_DIR: gitDir };
  const git = (args: string[], input?: string) => runGit(args, env, gitDir, input === undefined ? {} : { input });
  const removed = new Set(o.removed.map(refSession));
  const keep = new Set(o.keep.map(refSession));
  let refs = await listRefs(git);
  const gone = refs.filter((r) => removed.has(r.session) || (!keep.has(r.session) && r.time * 1000 < o.cutoffMs));
  await deleteRefs(git, gone);
  for (const s of removed) rmSync(path.join(gitDir, 'wicket-outside', `${s}.json`), { force: true });
  refs = refs.filter((r) => !gone.includes(r));
  if (!refs.length) {
    // Not while a scan may use it: the app's scan made ahead, a prompt's scan not yet named (shadow-git.ts).
    if (!usedSince(gitDir, (o.now ?? Date.now()) - IN_USE_MS)) rmSync(gitDir, { recursive: true, force: true });
    return;
  }
  if (gone.length) await gc(git, gitDir);
  // Over the cap: the oldest half goes (the running sessions' last), until it fits or one is left.
  const cap = o.capBytes ?? snapshotCapBytes();
  while (refs.length > 1 && (await sizeBytes(git)) > cap) {
    const order = [...refs].sort((a, b) => Number(keep.has(a.session)) - Number(keep.has(b.session)) || a.time - b.time);
    const drop = order.slice(0, Math.ceil(refs.length / 2));
    await deleteRefs(git, drop);
    refs = refs.filter((r) => !drop.includes(r));
    await gc(git, gitDir);
  }
}

/**
 * Removes the objects no snapshot names. The indexes of nested repositories' shadows (shadow-nested.ts)
 * may name some of them and are not seen by git's prune: they go, and are made again by the next snapshot.
 */
async function gc(git: (args: string[]) => ReturnType<typeof runGit>, gitDir: string): Promise<void> {
  await git(['gc', '--quiet', '--prune=now']);
  rmSync(path.join(gitDir, 'nested'), { recursive: true, force: true });
}

async function listRefs(git: (args: string[]) => ReturnType<typeof runGit>): Promise<Ref[]> {
  const out = await git(['for-each-ref', '--format=%(refname) %(committerdate:unix)', 'refs/wicket/']);
  return out.stdout
    .toString('utf8')
    .split('\n')
    .flatMap((line) => {
      const [name, time] = line.split(' ');
      const session = name?.split('/')[2];
      return name && session ? [{ name, session, time: Number(time) || 0 }] : [];
    });
}

async function deleteRefs(git: (args: string[], input?: string) => ReturnType<typeof runGit>, refs: readonly Ref[]): Promise<void> {
  if (refs.length) await git(['update-ref', '--stdin'], refs.map((r) => `delete ${r.name}\n`).join(''));
}

async function sizeBytes(git: (args: string[]) => ReturnType<typeof runGit>): Promise<number> {
  const out = (await git(['count-objects', '-v'])).stdout.toString('utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(out)?.[1] ?? 0);
  return (kib('size') + kib('size-pack')) * 1024;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
