/**
 * Atomic writes through write-file-atomic: the new content goes to a temporary file in the same
 * directory, is flushed to disk, keeps the old file's mode and owner, and is renamed over the target.
 * A crash or a full disk leaves either the old file or the new one, never half of either. A symlink
 * is written through: the link stays, its target gets the content.
 */
import { mkdir, stat } from './lazy-fs.js';
import path from 'node:path';
import type { FileVersion } from '../read-state.js';
import { hashBytes } from './version.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** What the writing tools need: told before each write (core/file-history.ts keeps the earlier state). Never throws. */
export interface FileHistoryRecorder {
  beforeWrite(absPath: string): Promise<void>;
}

export interface AtomicWriteOptions {
  /** Create missing parent directories first. */
  createParents?: boolean;
  /** Permission bits for a file that does not exist yet (default: 0o666 less the umask). */
  mode?: number;
  /** Told before the write, so the file's earlier state can be kept (core/file-history.ts). */
  history?: FileHistoryRecorder;
}

/** Writes `data` to `filePath` atomically and returns the version now on disk. */
export async function writeAtomic(filePath: string, data: Buffer, opts: AtomicWriteOptions = {}): Promise<FileVersion> {
  await opts.history?.beforeWrite(filePath);
  if (opts.createParents) await mkdir(path.dirname(filePath), { recursive: true });
  await writeFileAtomic(filePath, data, { fsync: true, ...(opts.mode === undefined ? {} : { mode: opts.mode }) });
  const st = await stat(filePath);
  return { mtimeMs: st.mtimeMs, size: data.length, hash: hashBytes(data) };
}
