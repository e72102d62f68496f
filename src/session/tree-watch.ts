/**
 * What changed in a work tree since a moment (`arm()`, then each `take()`), so that a snapshot of an
 * unchanged tree (shadow-git.ts) costs no walk of its files, and one after changes reads only the
 * paths they touched. One inotify watch per folder (`fs.watch`, not recursive: Node 20's recursive
 * watch on Linux watches every file), leaving out `.git` folders, nested repositories and the large
 * ignored folders a snapshot leaves out. Every event in a watched folder (a file created, written,
 * deleted, renamed, its mode changed: inotify's IN_ATTRIB, which Node reports) names a path; a
 * folder's own mode change comes with the folder's name. More than MAX_CHANGED paths, or an event on
 * the root itself, and the list is given up: the next snapshot is git's full scan, as when there is
 * no watch. A chmod made through a hard link outside the tree is not seen, nor is a write.
 *
 * Events are delivered in order on one inotify descriptor, so writing a fence file in a watched
 * folder of wicket's own and waiting for its event proves that every change made before it has been
 * seen. The watch is used only where inotify sees every change: on Linux, on a local filesystem (not
 * NFS, FUSE, 9p, SMB), with at most MAX_WATCHED_DIRS folders; anywhere else, and after any error
 * (a watch refused, a fence not seen), it is off and every snapshot is a full scan. What it cannot
 * see: writes through a shared memory mapping, and a folder left out as large becoming small.
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat, mkdir, readdir, statfs, unlink, writeFile } from '../base/fs/lazy-fs.js';
import path from 'node:path';

export const MAX_WATCHED_DIRS = 10_000;
const FENCE_TIMEOUT_MS = 2000;
/** More folders touched than this between two snapshots: the watches are made again from scratch. */
const MAX_TOUCHED = 2000;
/** More paths changed than this between two snapshots: a full scan. */
const MAX_CHANGED = 1000;
/** statfs types where inotify sees every change: ext2-4, xfs, btrfs, tmpfs, overlayfs, zfs, f2fs, bcachefs. */
const LOCAL_FS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010, 0xca451a4e]);

type State = 'off' | 'dirty' | 'clean' | 'broken';

export class TreeWatch {
  private readonly dirs = new Map<string, FSWatcher>();
  private skip = new Set<string>();
  private state: State = 'off';
  /** Paths (relative) named by events since the last settle: the folders among them need watches. */
  private touched = new Set<string>();
  private rewalk = false;
  private fence: FSWatcher | undefined;
  private fenceCount = 0;
  private readonly waiters = new Map<string, () => void>();
  /** The folders left out when the watch last found too many folders to watch. */
  private tooManyWith: string | undefined;
  /** Paths (relative) events named since `arm()` or `take()`; undefined: too many, or one the watch cannot name. */
  private changed: Set<string> | undefined = new Set();

  /** `fenceDir`: a folder of wicket's own; `always`: folders never watched (relative), such as wicket's own inside the project. */
  constructor(
    readonly root: string,
    private readonly fenceDir: string,
    private readonly always: readonly string[] = [],
    private readonly maxDirs = MAX_WATCHED_DIRS,
  ) {}

  /**
   * The paths changed since `arm()` or the last `take()` (after every change made until now has been
   * seen), and forgets them: a snapshot updates only those. Undefined when the watch cannot vouch for
   * the list (off, too many changes, an error): the snapshot is then a full scan.
   */
  async take(): Promise<string[] | undefined> {
    if (this.state !== 'clean' && this.state !== 'dirty') return undefined;
    if (!this.changed || !(await this.settle()) || !this.changed) return undefined;
    const list = [...this.changed];
    this.changed = new Set();
    this.state = 'clean';
    return list;
  }

  /**
   * Before a full scan: watches what the scan will read (`skip`: the folders left out, relative) and
   * forgets the changes seen until now. Returns whether the watch is armed (else it stays off).
   */
  async arm(skip: readonly string[] | undefined): Promise<boolean> {
    if (this.state === 'broken') return false;
    if (skip && !sameSet(this.skip, [...skip, ...this.always])) {
      this.skip = new Set([...skip, ...this.always]);
      this.rewalk = true;
    }
    if (this.state === 'off') {
      if (!skip) return false;
      if (!(await this.usable())) {
        this.close();
        return false;
      }
      this.state = 'dirty';
      this.rewalk = true;
    }
    if (!(await this.settle())) return false;
    this.state = 'clean';
    this.changed = new Set();
    return true;
  }

  close(): void {
    this.state = 'broken';
    this.unwatchAll();
    this.fence?.close();
    this.fence = undefined;
  }

  /** Makes the watches match the tree, then waits until every event before now has been seen. */
  private async settle(): Promise<boolean> {
    try {
      for (let round = 0; round < 3; round++) {
        await this.fix();
        await this.fenced();
        if (this.state === 'broken') return false;
        if (!this.rewalk && !this.touched.size) return true;
      }
      this.state = 'dirty';
      return false;
    } catch (err) {
      if (!(err instanceof TooManyFolders)) {
        this.close();
        return false;
      }
      // Not watched this time (a new large folder, not yet known as left out?): the watches are made
      // again from the next scan's list; with the same list a second time, the watch gives up.
      this.unwatchAll();
      this.rewalk = true;
      this.state = 'dirty';
      if (this.tooManyWith === [...this.skip].sort().join('\0')) this.close();
      this.tooManyWith = [...this.skip].sort().join('\0');
      return false;
    }
  }

  private unwatchAll(): void {
    for (const w of this.dirs.values()) w.close();
    this.dirs.clear();
  }

  private async usable(): Promise<boolean> {
    if (process.platform !== 'linux') return false;
    const fs = await statfs(this.root).catch(() => undefined);
    if (!fs || !LOCAL_FS.has(fs.type)) return false;
    try {
      await mkdir(this.fenceDir, { recursive: true, mode: 0o700 });
      this.fence = watch(this.fenceDir, { persistent: false }, (_kind, name) => {
        const done = name ? this.waiters.get(name.toString()) : undefined;
        done?.();
      });
      this.fence.on('error', () => this.close());
      return true;
    } catch {
      return false;
    }
  }

  /** Writes a fence file and waits for its event: every event queued before it has been delivered. */
  private async fenced(): Promise<void> {
    if (!this.fence) throw new Error('no fence');
    const name = `fence-${process.pid}-${++this.fenceCount}`;
    const file = path.join(this.fenceDir, name);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<void>((resolve, reject) => {
      this.waiters.set(name, resolve);
      timer = setTimeout(() => reject(new Error('fence not seen')), FENCE_TIMEOUT_MS);
    });
    try {
      await writeFile(file, '');
      await seen;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(name);
      await unlink(file).catch(() => undefined);
    }
  }

  /** Watches the folders created, moved in or replaced since (or the whole tree again). */
  private async fix(): Promise<void> {
    if (this.rewalk || this.touched.size > MAX_TOUCHED) {
      this.rewalk = false;
      this.touched.clear();
      this.unwatchAll();
      await this.walk('');
      return;
    }
    const touched = [...this.touched];
    this.touched.clear();
    for (const rel of touched) {
      const st = await lstat(path.join(this.root, rel)).catch(() => undefined);
      const watched = this.dirs.has(rel);
      if (!watched && !st?.isDirectory()) continue;
      // A folder gone, replaced or new: its watches (on the old inodes) go and are made again.
      for (const [d, w] of this.dirs) {
        if (d === rel || d.startsWith(`${rel}/`)) {
          w.close();
          this.dirs.delete(d);
        }
      }
      if (st?.isDirectory()) await this.walk(rel);
    }
  }

  private async walk(start: string): Promise<void> {
    const stack = [start];
    while (stack.length) {
      const rel = stack.pop()!;
      if (this.skip.has(rel)) continue;
      const abs = path.join(this.root, rel);
      const names = await readdir(abs, { withFileTypes: true }).catch(() => undefined);
      if (!names) continue;
      if (rel && names.some((n) => n.name === '.git')) continue; // a nested repository: git keeps a link only
      this.watchDir(rel, abs);
      for (const n of names) if (n.isDirectory() && n.name !== '.git') stack.push(rel ? `${rel}/${n.name}` : n.name);
    }
  }

  private noteChange(child: string, folder: string | undefined): void {
    if (!this.changed) return;
    // the root itself, or too many paths: a full scan
    if (folder === '' || this.changed.size >= MAX_CHANGED) this.changed = undefined;
    else {
      this.changed.add(child);
      if (folder !== undefined) this.changed.add(folder);
    }
  }

  private watchDir(rel: string, abs: string): void {
    if (this.dirs.has(rel) || this.state === 'broken') return;
    if (this.dirs.size >= this.maxDirs) throw new TooManyFolders();
    const self = path.basename(abs);
    const w = watch(abs, { persistent: false }, (_kind, name) => {
      if (this.state === 'clean') this.state = 'dirty';
      const child = name ? (rel ? `${rel}/${name.toString()}` : name.toString()) : rel;
      if (this.touched.size <= MAX_TOUCHED) this.touched.add(child);
      // An event on the folder itself (its mode changed) comes with the folder's own name.
      this.noteChange(child, !name || name.toString() === self ? rel : undefined);
    });
    w.on('error', () => this.close());
    this.dirs.set(rel, w);
  }
}

class TooManyFolders extends Error {}

function sameSet(a: ReadonlySet<string>, b: readonly string[]): boolean {
  return a.size === new Set(b).size && b.every((x) => a.has(x));
}
