/**
 * Atomic writes: the new content goes to a temporary file in the same directory, is flushed to
 * disk, given the old file's mode (and owner), and renamed over the target. A crash or a full disk
 * leaves either the old file or the new one, never half of either; the temporary file is removed
 * when anything fails. A symlink is written through: the link stays, its target gets the content.
 *
 * (Written here rather than taken from write-file-atomic: that package reads the CommonJS
 * `__filename`, which does not exist once the program is bundled as ES modules.)
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileVersion } from '../read-state.js';
import { hashBytes } from './version.js';

export interface AtomicWriteOptions {
  /** Create missing parent directories first. */
  createParents?: boolean;
}

/** Writes `data` to `filePath` atomically and returns the version now on disk. */
export async function writeAtomic(filePath: string, data: Buffer, opts: AtomicWriteOptions = {}): Promise<FileVersion> {
  if (opts.createParents) await mkdir(path.dirname(filePath), { recursive: true });
  const target = await realpath(filePath).catch(() => filePath);
  const old = await stat(target).catch(() => undefined);
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeTemp(tmp, data, old);
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  const st = await stat(target);
  return { mtimeMs: st.mtimeMs, size: data.length, hash: hashBytes(data) };
}

async function writeTemp(tmp: string, data: Buffer, old: Stats | undefined): Promise<void> {
  // 'wx': never follow or reuse something already at the temporary name.
  const fh = await open(tmp, 'wx', old ? old.mode & 0o7777 : 0o666);
  try {
    await fh.writeFile(data);
    await fh.sync();
    if (old) {
      await fh.chmod(old.mode & 0o7777);
      await fh.chown(old.uid, old.gid).catch(() => {}); // only root may give a file away; keep going
    }
  } finally {
    await fh.close();
  }
}
