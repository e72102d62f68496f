/**
 * The files SessionStart and CwdChanged hooks asked to watch (`hookSpecificOutput.watchPaths`):
 * when one is created, changed or deleted, FileChanged hooks run (matched on the file's name).
 * Each folder is watched once; bursts of events settle for 100 ms; watching never keeps the
 * process alive and never throws (a folder that does not exist is not watched).
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export type FileEvent = 'add' | 'change' | 'unlink';

const SETTLE_MS = 100;

export class FileWatch {
  private readonly files = new Set<string>();
  private readonly dirs = new Map<string, FSWatcher>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Whether each file was there when last seen: a settled burst is an add, a change or an unlink. */
  private readonly present = new Map<string, boolean>();

  constructor(private readonly onChange: (filePath: string, event: FileEvent) => void) {}

  /** Watches these files too (relative paths are taken from `cwd`). */
  add(paths: readonly string[], cwd: string): void {
    for (const p of paths) {
      const file = path.resolve(cwd, p);
      this.files.add(file);
      this.present.set(file, existsSync(file));
      this.watchDir(path.dirname(file));
    }
  }

  close(): void {
    for (const w of this.dirs.values()) w.close();
    for (const t of this.timers.values()) clearTimeout(t);
    this.dirs.clear();
  }

  private settled(file: string): void {
    const was = this.present.get(file) ?? false;
    const now = existsSync(file);
    this.present.set(file, now);
    if (was || now) this.onChange(file, !was ? 'add' : !now ? 'unlink' : 'change');
  }

  private watchDir(dir: string): void {
    if (this.dirs.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, (_kind, name) => {
        const file = name ? path.join(dir, name.toString()) : undefined;
        if (!file || !this.files.has(file)) return;
        clearTimeout(this.timers.get(file));
        this.timers.set(file, setTimeout(() => this.settled(file), SETTLE_MS).unref());
      });
      w.on('error', () => w.close());
      this.dirs.set(dir, w);
    } catch {
      // not there (yet): not watched
    }
  }
}
