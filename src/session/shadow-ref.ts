/**
 * Names a snapshot's commit in the shadow repository (shadow-git.ts) without starting git when it
 * can: the shadow is made by wicket's own `git init` with the "files" ref storage, where a ref is a
 * file holding the commit id; it is written to a temporary file beside the refs and renamed into
 * place, as git does. A shadow with reftable storage, or a name git might refuse, goes through
 * `git update-ref`. Also what a snapshot's commit records, and the listing and copying of a
 * session's snapshots by their refs (`refs/wicket/<session>/<checkpoint>`).
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from '../base/fs/lazy-fs.js';
import path from 'node:path';
import type { GitResult, GitRunOptions } from './shadow-git-run.js';

let tmpCount = 0;

/** Whether `ref` can be written as a plain file: `refs/wicket/<session>/<n>`, with plain names only. */
export function plainRef(ref: string): boolean {
  return /^refs\/wicket\/[A-Za-z0-9_-]+\/\d+$/.test(ref);
}

/** Points `ref` at `commit`; `viaGit` runs `git update-ref` when a file cannot be written. */
export async function writeRef(gitDir: string, ref: string, commit: string, viaGit: () => Promise<unknown>): Promise<void> {
  if (!/^[0-9a-f]{40}$/.test(commit) || !plainRef(ref) || existsSync(path.join(gitDir, 'reftable'))) {
    await viaGit();
    return;
  }
  const file = path.join(gitDir, ...ref.split('/'));
  const tmp = path.join(gitDir, `wicket-ref-${process.pid}-${++tmpCount}`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, `${commit}\n`);
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** What a snapshot records besides the tree. */
export interface SnapshotMeta {
  session: string;
  checkpoint: number;
  /** The project's git HEAD commit then ('' when it had none); absent outside a git repository. */
  head?: string;
  /** The project's branch then (`refs/heads/…`, or `HEAD` when detached). */
  branch?: string;
}

export interface Snapshot extends SnapshotMeta {
  commit: string;
  tree: string;
  /** The blob of the modes of its files and folders (shadow-modes.ts); absent in a snapshot taken before they were kept. */
  modes?: string;
}

/** A session id as a ref name part. */
export function refSession(sessionId: string): string {
  return sessionId.replace(/[^\w.-]/g, '_').replace(/^\.+/, '_') || 'default';
}

type Git = (args: readonly string[], opts?: GitRunOptions) => Promise<GitResult>;

/** The session's snapshots, oldest first. */
export async function listSnapshots(gitDir: string, git: Git, session: string): Promise<Snapshot[]> {
  if (!existsSync(path.join(gitDir, 'HEAD'))) return [];
  const prefix = `refs/wicket/${refSession(session)}/`;
  const out = await git(['for-each-ref', '--format=%(refname)%00%(objectname)%00%(tree)%00%(contents)%00%00', prefix]);
  const snaps: Snapshot[] = [];
  for (const rec of out.stdout.toString('utf8').split('\0\0')) {
    const [ref, commit, tree, body] = rec.replace(/^\n/, '').split('\0');
    const checkpoint = Number(ref?.slice(prefix.length));
    if (!ref || !commit || !tree || !Number.isSafeInteger(checkpoint)) continue;
    snaps.push({ ...parseMeta(body ?? ''), session, checkpoint, commit, tree });
  }
  return snaps.sort((a, b) => a.checkpoint - b.checkpoint);
}

/**
 * A forked session starts with its parent's snapshots: `from`'s refs are named again for `to`,
 * once (not when `to` has snapshots of its own already).
 */
export async function copySessionRefs(gitDir: string, git: Git, from: string, to: string): Promise<void> {
  if (!existsSync(path.join(gitDir, 'HEAD'))) return;
  const [src, dst] = [`refs/wicket/${refSession(from)}/`, `refs/wicket/${refSession(to)}/`];
  if (src === dst) return;
  const out = await git(['for-each-ref', '--format=%(refname) %(objectname)', src, dst]);
  const refs = out.stdout.toString('utf8').split('\n').filter(Boolean);
  if (!refs.length || refs.some((r) => r.startsWith(dst))) return;
  const lines = refs.map((r) => r.split(' ')).map(([ref, id]) => `create ${dst}${ref!.slice(src.length)} ${id}\n`);
  await git(['update-ref', '--stdin'], { input: lines.join('') });
}

export function snapshotRef(session: string, checkpoint: number): string {
  return `refs/wicket/${refSession(session)}/${checkpoint}`;
}

function parseMeta(body: string): Partial<SnapshotMeta> & { modes?: string } {
  try {
    const m = JSON.parse(body) as Record<string, unknown>;
    return {
      ...(typeof m.modes === 'string' && /^[0-9a-f]{40,64}$/.test(m.modes) ? { modes: m.modes } : {}),
      ...(typeof m.head === 'string' ? { head: m.head } : {}),
      ...(typeof m.branch === 'string' ? { branch: m.branch } : {}),
    };
  } catch {
    return {};
  }
}
