/**
 * Where the file history of a session is kept: a manifest (`checkpoints.json`: which file had which
 * earlier state at which checkpoint) and one backup file per saved state, in
 * `<wicketHome>/file-history/<session-id>/`, each written atomically. Without session persistence
 * the same lives in memory for the run.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mkdir, readFile, rm } from '../base/fs/lazy-fs.js';
import { writeFileAtomic } from '../base/fs/write-file-atomic.js';

/** The state a file had when a checkpoint began, as saved before its first change after it. */
export type FileBackup =
  /** Its bytes are in backup file `backup`; `mode` its permission bits. */
  | { backup: string; mode?: number }
  /** It did not exist. */
  | { absent: true }
  /** Its state could not be saved (unreadable, not a regular file, the copy failed). */
  | { error: string };

export interface StoredCheckpoint {
  /** Increasing with time (milliseconds since 1970, bumped to stay unique). */
  id: number;
  /** Absolute path → its state when the checkpoint began. Only files changed after it. */
  files: Record<string, FileBackup>;
}

export interface Manifest {
  version: 1;
  /** Backups made so far (numbers their names). */
  backups: number;
  /** Checkpoints that changed files, oldest first. */
  checkpoints: StoredCheckpoint[];
  /** The newest checkpoint dropped to keep the history short: points up to it cannot be restored. */
  droppedThrough?: number;
}

export interface HistoryStore {
  /** The manifest as saved (undefined: none yet, or unreadable). Synchronous: it is small. */
  readManifest(): Manifest | undefined;
  writeManifest(m: Manifest): Promise<void>;
  putBackup(name: string, bytes: Buffer): Promise<void>;
  getBackup(name: string): Promise<Buffer>;
  deleteBackup(name: string): Promise<void>;
}

export function emptyManifest(): Manifest {
  return { version: 1, backups: 0, checkpoints: [] };
}

const BACKUP_NAME = /^[\w.@-]+$/;

/** A manifest read from disk, checked: anything malformed is dropped rather than trusted. */
export function parseManifest(text: string): Manifest | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object' || (raw as Manifest).version !== 1 || !Array.isArray((raw as Manifest).checkpoints)) return undefined;
  const m = raw as Manifest;
  const checkpoints = m.checkpoints.filter(
    (c): c is StoredCheckpoint =>
      !!c &&
      typeof c.id === 'number' &&
      !!c.files &&
      typeof c.files === 'object' &&
      Object.entries(c.files).every(([p, b]) => path.isAbsolute(p) && validBackup(b)),
  );
  return {
    version: 1,
    backups: Number.isInteger(m.backups) ? m.backups : 0,
    checkpoints,
    ...(typeof m.droppedThrough === 'number' ? { droppedThrough: m.droppedThrough } : {}),
  };
}

function validBackup(b: unknown): b is FileBackup {
  if (!b || typeof b !== 'object') return false;
  const o = b as Record<string, unknown>;
  if (o.absent === true) return true;
  if (typeof o.error === 'string') return true;
  return typeof o.backup === 'string' && BACKUP_NAME.test(o.backup) && (o.mode === undefined || typeof o.mode === 'number');
}

/** The store of one session on disk. `copyFrom`: a session this one was forked from, copied on first use. */
export class DiskHistoryStore implements HistoryStore {
  constructor(
    readonly dir: string,
    private readonly copyFrom?: string,
  ) {}

  private get manifestFile(): string {
    return path.join(this.dir, 'checkpoints.json');
  }

  readManifest(): Manifest | undefined {
    try {
      if (this.copyFrom && !existsSync(this.manifestFile) && existsSync(path.join(this.copyFrom, 'checkpoints.json'))) {
        cpSync(this.copyFrom, this.dir, { recursive: true });
      }
    } catch {
      // the forked-from history could not be copied: this session starts its own
    }
    try {
      return parseManifest(readFileSync(this.manifestFile, 'utf8'));
    } catch {
      return undefined;
    }
  }

  async writeManifest(m: Manifest): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.manifestFile, `${JSON.stringify(m)}\n`, { fsync: true, mode: 0o600 });
  }

  async putBackup(name: string, bytes: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.backupFile(name), bytes, { fsync: true, mode: 0o600 });
  }

  getBackup(name: string): Promise<Buffer> {
    return readFile(this.backupFile(name));
  }

  async deleteBackup(name: string): Promise<void> {
    await rm(this.backupFile(name), { force: true });
  }

  private backupFile(name: string): string {
    if (!BACKUP_NAME.test(name)) throw new Error(`not a backup name: ${name}`);
    return path.join(this.dir, name);
  }
}

/** The store of a session that is not saved (--no-session-persistence): gone when the run ends. */
export class MemoryHistoryStore implements HistoryStore {
  private manifest: Manifest | undefined;
  private readonly files = new Map<string, Buffer>();

  readManifest(): Manifest | undefined {
    return this.manifest && structuredClone(this.manifest);
  }

  async writeManifest(m: Manifest): Promise<void> {
    this.manifest = structuredClone(m);
  }

  async putBackup(name: string, bytes: Buffer): Promise<void> {
    this.files.set(name, Buffer.from(bytes));
  }

  async getBackup(name: string): Promise<Buffer> {
    const b = this.files.get(name);
    if (!b) throw new Error(`no backup ${name}`);
    return b;
  }

  async deleteBackup(name: string): Promise<void> {
    this.files.delete(name);
  }
}
