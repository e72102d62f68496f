/**
 * Puts the work tree back to a snapshot: given the paths that differ from the snapshot (`then`) to
 * the tree now, removes what was created since, and writes back what was changed or deleted, with
 * its bytes, its executable bit and its symlink target; then every file and folder whose mode
 * differs from the snapshot's record of modes gets it back (setuid, setgid and sticky bits
 * included). Files are written atomically; the project's `.git` is never touched (git never lists
 * it), nor is a nested repository, and a mode is never set through a symlink.
 */
import { chmod, lstat, mkdir, readdir, realpath, rmdir, symlink, unlink } from '../../base/fs/lazy-fs.js';
import path from 'node:path';
import { errorMessage } from '../../base/errors.js';
import { writeFileAtomic } from '../../base/fs/write-file-atomic.js';
import { isInside } from '../../base/paths.js';
import type { ShadowRepo, TreeChange } from '../../session/shadow-git.js';
import type { ModeEntry } from './mode-diff.js';

export const ABSENT = '000000';
export const GITLINK = '160000';
const SYMLINK = '120000';

export interface ApplyReport {
  restored: string[];
  deleted: string[];
  failed: Array<{ path: string; reason: string }>;
}

/** Applies `changes` (from the snapshot to now) backwards, so the tree is as in the snapshot. Never throws. */
export async function applyTreeChanges(repo: ShadowRepo, changes: readonly TreeChange[]): Promise<ApplyReport> {
  const report: ApplyReport = { restored: [], deleted: [], failed: [] };
  const root = repo.workTree;
  const abs = (rel: string) => path.join(root, rel);
  const usable = changes.filter((c) => c.oldMode !== GITLINK && c.newMode !== GITLINK && isInside(abs(c.path), root) && !isGitPath(c.path));
  // Created since: removed first (deepest first), so that a folder can become a file again.
  const created = usable.filter((c) => c.oldMode === ABSENT).sort((a, b) => b.path.length - a.path.length);
  for (const c of created) {
    try {
      await removeFile(abs(c.path));
      report.deleted.push(abs(c.path));
      await removeEmptyParents(path.dirname(abs(c.path)), root);
    } catch (err) {
      report.failed.push({ path: abs(c.path), reason: errorMessage(err) });
    }
  }
  const back = usable.filter((c) => c.oldMode !== ABSENT);
  let blobs: Map<string, Buffer>;
  try {
    blobs = await repo.blobs(back.map((c) => c.oldBlob));
  } catch (err) {
    for (const c of back) report.failed.push({ path: abs(c.path), reason: `its saved copy could not be read (${errorMessage(err)})` });
    return report;
  }
  for (const c of back) {
    const bytes = blobs.get(c.oldBlob);
    try {
      if (!bytes) throw new Error('its saved copy is missing from the snapshot');
      await writeEntry(abs(c.path), c.oldMode, bytes);
      report.restored.push(abs(c.path));
    } catch (err) {
      report.failed.push({ path: abs(c.path), reason: errorMessage(err) });
    }
  }
  return report;
}

function isGitPath(rel: string): boolean {
  return rel.split('/').includes('.git');
}

async function removeFile(p: string): Promise<void> {
  const st = await lstat(p).catch(() => undefined);
  if (!st) return;
  if (st.isDirectory()) throw new Error(`${p} is a folder now; it was left as it is`);
  await unlink(p);
}

/** Folders left empty by a removal go too, up to the project (git keeps no empty folders). */
async function removeEmptyParents(dir: string, root: string): Promise<void> {
  for (let d = dir; d !== root && isInside(d, root); d = path.dirname(d)) {
    const names = await readdir(d).catch(() => undefined);
    if (!names || names.length) return;
    await rmdir(d).catch(() => undefined);
  }
}

/** Writes one path as the snapshot had it: a symlink, or a file with its bytes and executable bit. */
async function writeEntry(p: string, mode: string, bytes: Buffer): Promise<void> {
  const st = await lstat(p).catch(() => undefined);
  if (st?.isDirectory()) {
    // A folder where a file was: only an empty one (its files created since were removed above) gives way.
    await rmdir(p).catch(() => {
      throw new Error(`${p} is a folder now that is not empty; it was left as it is`);
    });
  }
  await mkdir(path.dirname(p), { recursive: true });
  if (mode === SYMLINK) {
    if (st && !st.isDirectory()) await unlink(p);
    await symlink(bytes.toString('utf8'), p);
    return;
  }
  // A symlink now: replaced, not written through.
  if (st?.isSymbolicLink()) await unlink(p);
  const exec = mode === '100755';
  const kept = st?.isFile() ? st.mode & 0o7777 & ~0o111 : 0o644;
  const perm = exec ? kept | ((kept & 0o444) >> 2) | 0o100 : kept;
  await writeFileAtomic(p, bytes, { fsync: true, mode: perm });
  await chmod(p, perm);
}

/**
 * Gives back to each path of `then` (its mode in the snapshot, from modesThen) that mode, where it
 * differs now: files first, then folders, deepest first. What is gone, or is a symlink or of
 * another kind now, is left as it is. Never throws: a failure is reported.
 */
export async function applyModes(root: string, then: ReadonlyMap<string, ModeEntry>, report: ApplyReport): Promise<void> {
  const todo = [...then].sort(([a, x], [b, y]) => Number(x.kind === 'd') - Number(y.kind === 'd') || b.length - a.length);
  const realRoot = await realpath(root).catch(() => root);
  const done = new Set([...report.restored, ...report.deleted]);
  for (const [rel, e] of todo) {
    const abs = rel ? path.join(root, rel) : root;
    if (!isInside(abs, root) || isGitPath(rel)) continue;
    try {
      const st = await lstat(abs).catch(() => undefined);
      if (!st || (e.kind === 'd' ? !st.isDirectory() : !st.isFile()) || (st.mode & 0o7777) === e.mode) continue;
      // no symlink on the way: the folder holding it is where the record says
      if (rel && (await realpath(path.dirname(abs))) !== path.join(realRoot, path.dirname(rel))) continue;
      await chmod(abs, e.mode);
      if (!done.has(abs)) report.restored.push(abs);
    } catch (err) {
      report.failed.push({ path: abs, reason: `its mode could not be set back (${errorMessage(err)})` });
    }
  }
}
