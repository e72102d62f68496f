/**
 * Checkpoints of the files the session's tools change. Every prompt starts a checkpoint; before
 * Edit, Write or NotebookEdit first changes a file after it, the file's state is saved (its bytes,
 * or the fact that it did not exist). The state of a file at checkpoint c is then the state saved
 * at the first checkpoint at or after c that changed it; a file no checkpoint since c changed is as
 * it was. Changes made by Bash or outside wicket are not seen here: the snapshots of the whole
 * project (core/snapshots/) cover them.
 *
 * A restore is recorded the same way (into the current checkpoint), so that it can be undone by a
 * restore to a later point. Rewound prompts keep their checkpoints: a restore to an earlier point
 * still needs them.
 */
import { errorMessage } from '../base/errors.js';
import { lstat, readFile, stat, unlink } from '../base/fs/lazy-fs.js';
import type { ReadState } from '../base/read-state.js';
import { writeAtomic, type FileHistoryRecorder } from '../base/fs/atomic-write.js';
import { hashBytes } from '../base/fs/version.js';
import { emptyManifest, type FileBackup, type HistoryStore, type Manifest, type StoredCheckpoint } from './file-history-store.js';

/** Checkpoints kept; older ones are dropped (with their backups) and can no longer be restored to. */
export const MAX_CHECKPOINTS = 100;

/** One file a restore would change. */
export interface FileChange {
  path: string;
  /** `write`: back to earlier bytes; `delete`: it did not exist then; `unknown`: its earlier state was not saved. */
  action: 'write' | 'delete' | 'unknown';
  /** The bytes it had then (`write`). */
  then?: Buffer;
  /** The bytes it has now (undefined: it does not exist, or could not be read). */
  now?: Buffer;
  mode?: number;
  /** Why it cannot be restored (`unknown`), or why it could not be read now. */
  reason?: string;
}

export type RestorePlan = { ok: true; changes: FileChange[] } | { ok: false; reason: string };

export interface RestoreReport {
  /** Files written back to their earlier content. */
  restored: string[];
  /** Files removed because they did not exist then. */
  deleted: string[];
  failed: Array<{ path: string; reason: string }>;
  /** Why nothing was done (the point is older than the history kept). */
  refused?: string;
}

export class FileHistory implements FileHistoryRecorder {
  private manifest: Manifest | undefined;
  private current: StoredCheckpoint | undefined;
  private lastId = 0;
  /** Captures and restores run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: HistoryStore,
    private readonly maxCheckpoints = MAX_CHECKPOINTS,
  ) {}

  private load(): Manifest {
    return (this.manifest ??= this.store.readManifest() ?? emptyManifest());
  }

  /** Starts a checkpoint (a prompt went in) and returns its id. No I/O beyond the first manifest read. */
  checkpoint(): number {
    const m = this.load();
    const last = Math.max(this.lastId, m.checkpoints.at(-1)?.id ?? 0, m.droppedThrough ?? 0);
    this.lastId = Math.max(Date.now(), last + 1);
    this.current = { id: this.lastId, files: {} };
    return this.lastId;
  }

  /** Saves `absPath`'s state before its first change since the current checkpoint. */
  beforeWrite(absPath: string): Promise<void> {
    return this.serial(() => this.capture(absPath)).catch(() => undefined);
  }

  /** Whether a restore to checkpoint `id` is possible (it is not older than the history kept). */
  canRestore(id: number): boolean {
    const dropped = this.load().droppedThrough;
    return dropped === undefined || id > dropped;
  }

  /** What a restore to checkpoint `id` would change, against the files as they are now. */
  plan(id: number): Promise<RestorePlan> {
    return this.serial(() => this.planNow(id));
  }

  /**
   * Puts every tracked file back to its state at checkpoint `id`; forgets what the model read of each
   * one changed. `skip`: files restored another way (from a snapshot of the project).
   */
  restore(id: number, readState?: ReadState, skip?: (absPath: string) => boolean): Promise<RestoreReport> {
    return this.serial(async () => {
      const report: RestoreReport = { restored: [], deleted: [], failed: [] };
      const plan = await this.planNow(id);
      if (!plan.ok) return { ...report, refused: plan.reason };
      const changes = skip ? plan.changes.filter((c) => !skip(c.path)) : plan.changes;
      // A restore is a change like the tools': saved first, so that a later restore can undo it.
      if (!this.current && changes.length) this.checkpoint();
      for (const c of changes) {
        try {
          if (c.action !== 'unknown') await this.capture(c.path);
          await applyChange(c);
          (c.action === 'delete' ? report.deleted : report.restored).push(c.path);
          readState?.forget(c.path);
        } catch (err) {
          report.failed.push({ path: c.path, reason: errorMessage(err) });
        }
      }
      return report;
    });
  }

  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async capture(absPath: string): Promise<void> {
    const cur = this.current;
    if (!cur || Object.hasOwn(cur.files, absPath)) return;
    const m = this.load();
    cur.files[absPath] = await this.backupOf(absPath, m);
    if (m.checkpoints.at(-1) !== cur) {
      m.checkpoints.push(cur);
      await this.prune(m);
    }
    await this.store.writeManifest(m);
  }

  private async backupOf(absPath: string, m: Manifest): Promise<FileBackup> {
    let bytes: Buffer;
    let mode: number;
    try {
      const st = await stat(absPath);
      if (!st.isFile()) return { error: `${absPath} is not a regular file` };
      mode = st.mode & 0o7777;
      bytes = await readFile(absPath);
    } catch (err) {
      if (isMissing(err)) return { absent: true };
      return { error: `it could not be read (${errorMessage(err)})` };
    }
    const name = `${hashBytes(Buffer.from(absPath)).slice(0, 8)}@v${++m.backups}`;
    try {
      await this.store.putBackup(name, bytes);
    } catch (err) {
      return { error: `its copy could not be saved (${errorMessage(err)})` };
    }
    return { backup: name, mode };
  }

  private async prune(m: Manifest): Promise<void> {
    while (m.checkpoints.length > this.maxCheckpoints) {
      const old = m.checkpoints.shift()!;
      m.droppedThrough = old.id;
      for (const b of Object.values(old.files)) if ('backup' in b) await this.store.deleteBackup(b.backup).catch(() => undefined);
    }
  }

  private async planNow(id: number): Promise<RestorePlan> {
    if (!this.canRestore(id)) return { ok: false, reason: `that point is older than the ${this.maxCheckpoints} checkpoints kept` };
    const changes: FileChange[] = [];
    for (const [p, then] of statesAt(this.load(), id)) {
      const change = await this.changeFor(p, then);
      if (change) changes.push(change);
    }
    return { ok: true, changes };
  }

  private async changeFor(p: string, then: FileBackup): Promise<FileChange | undefined> {
    const now = await readNow(p);
    if ('error' in then)
      return { path: p, action: 'unknown', reason: `its earlier state was not saved: ${then.error}`, ...(now.bytes ? { now: now.bytes } : {}) };
    if ('absent' in then)
      return now.exists ? { path: p, action: 'delete', ...(now.bytes ? { now: now.bytes } : {}), ...(now.reason ? { reason: now.reason } : {}) } : undefined;
    let bytes: Buffer;
    try {
      bytes = await this.store.getBackup(then.backup);
    } catch (err) {
      return { path: p, action: 'unknown', reason: `its saved copy is missing (${errorMessage(err)})` };
    }
    if (now.bytes?.equals(bytes)) return undefined;
    return {
      path: p,
      action: 'write',
      then: bytes,
      ...(now.bytes ? { now: now.bytes } : {}),
      ...(then.mode === undefined ? {} : { mode: then.mode }),
      ...(now.reason ? { reason: now.reason } : {}),
    };
  }
}

/** Each tracked file's state at checkpoint `id`: the first saved at or after it. */
function statesAt(m: Manifest, id: number): Map<string, FileBackup> {
  const states = new Map<string, FileBackup>();
  for (const c of m.checkpoints) {
    if (c.id < id) continue;
    for (const [p, b] of Object.entries(c.files)) if (!states.has(p)) states.set(p, b);
  }
  return states;
}

async function readNow(p: string): Promise<{ exists: boolean; bytes?: Buffer; reason?: string }> {
  try {
    const st = await stat(p);
    if (!st.isFile()) return { exists: true, reason: `${p} is not a regular file now` };
    return { exists: true, bytes: await readFile(p) };
  } catch (err) {
    if (isMissing(err)) return { exists: false };
    return { exists: true, reason: `it cannot be read now (${errorMessage(err)})` };
  }
}

async function applyChange(c: FileChange): Promise<void> {
  if (c.action === 'unknown') throw new Error(c.reason ?? 'its earlier state is unknown');
  if (c.action === 'write') {
    // Mode bits only for a file made again; an existing one keeps its own.
    const exists = await stat(c.path).then(
      () => true,
      () => false,
    );
    await writeAtomic(c.path, c.then!, { createParents: true, ...(exists || c.mode === undefined ? {} : { mode: c.mode }) });
    return;
  }
  const st = await lstat(c.path).catch((err) => (isMissing(err) ? undefined : Promise.reject(err)));
  if (!st) return;
  if (st.isDirectory()) throw new Error(`${c.path} is a directory now; it was left as it is`);
  await unlink(c.path);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
