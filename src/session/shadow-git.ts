/**
 * A shadow git repository per project, under wicket's state folder
 * (`<wicket home>/snapshots/<project slug>/`), that keeps snapshots of the whole work tree. Git's
 * objects are content-addressed, so an unchanged file costs nothing, and the shadow's own index keeps
 * git's stat cache, so `git add -A` on an unchanged tree only compares file stats. The project's
 * `.git`, its index and its refs are never touched (shadow-git-run.ts). What a snapshot leaves out is
 * in shadow-exclude.ts. A watched shadow (a session's, tree-watch.ts) reuses the last tree when
 * nothing changed and updates only the changed paths otherwise (shadow-scan.ts); nested repositories
 * have shadows of their own (shadow-nested.ts).
 *
 * A snapshot is a commit (its message: the session, the checkpoint, the project's git HEAD then and
 * the blob of its files' and folders' modes, shadow-modes.ts) named by
 * `refs/wicket/<session>/<checkpoint>`; its parent commit holds the modes blob.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/paths.js';
import { writeFileAtomic } from '../base/fs/write-file-atomic.js';
import { exactPattern, fileCapBytes, readLeftOut, sameList, writeLeftOut } from './shadow-exclude.js';
import { runCommand, runGit, SHADOW_CONFIG, shadowEnv, type GitPlace, type GitRunOptions, type GitResult } from './shadow-git-run.js';
import { parseModes, serializeModes, type ModeMap, type ModeRecord } from './shadow-modes.js';
import { nestedGitDir, NestedShadows } from './shadow-nested.js';
import { objectKept, presentIn, readBlobs, treeDiff, treeKinds, treeNumstat, type TreeChange } from './shadow-read.js';
import { fullScan, partialScan, type ScanPlace } from './shadow-scan.js';
import { projectSlug } from './paths.js';
import { copySessionRefs, listSnapshots, snapshotRef, writeRef, type Snapshot, type SnapshotMeta } from './shadow-ref.js';
import { TreeWatch } from './tree-watch.js';

/** The work tree as recorded now: its git tree and the modes of its files and folders. */
export interface TreeState {
  tree: string;
  modes: ModeRecord;
}

export type { TreeChange, Snapshot, SnapshotMeta };
export { refSession, snapshotRef } from './shadow-ref.js';

const LOCK_RETRIES = 20;
/** Touched by every scan: a repository without snapshots that a scan used lately is not pruned. */
export const USED_STAMP = 'wicket-used';
/** A scan made ahead (warm): below the app's priority. */
const BACKGROUND: GitRunOptions = { niceness: 10 };

/** `<wicket home>/snapshots`: one shadow repository per project. */
export function snapshotsRoot(wicketHome: string): string {
  return path.join(wicketHome, 'snapshots');
}

export interface ShadowOptions {
  /** Per-file cap in bytes (default: fileCapBytes()). */
  fileCap?: number;
  /** Watch the work tree, so that a snapshot of an unchanged tree skips git's scan (tree-watch.ts): for a long-lived session. */
  watch?: boolean;
  /** At most this many folders watched (default MAX_WATCHED_DIRS). */
  maxWatchedDirs?: number;
  /** The object store to use (a nested repository's shadow uses the project's). */
  objects?: string;
}

export class ShadowRepo {
  readonly place: GitPlace;
  private readonly env: NodeJS.ProcessEnv;
  private readonly fileCap: number;
  private ready: Promise<void> | undefined;
  private made = false;
  private readonly watch: TreeWatch | undefined;
  /** The work tree as the watch last vouched for it, and the folders the scan left out as large. */
  private known: { state: TreeState; leftOut: string[]; kept: () => boolean } | undefined;
  private leftOut: string[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private lastCommit: (Snapshot & { kept: () => boolean }) | undefined;
  /** The last modes record written, and the commit that keeps it alive. */
  private lastModes: { text: string; blob: string; kept: () => boolean } | undefined;
  private lastModesParent: { blob: string; commit: string; kept: () => boolean } | undefined;
  private readonly objects: string;
  /** The nested repositories the last scan found (relative), and their shadows. */
  private nestedPaths: string[] = [];
  private readonly nested: NestedShadows;
  /** git's full scans made by this shadow (the bench and the tests read it). */
  fullScans = 0;

  constructor(
    gitDir: string,
    readonly workTree: string,
    opts: ShadowOptions = {},
  ) {
    this.place = { gitDir, workTree, indexFile: path.join(gitDir, 'index') };
    this.env = shadowEnv(this.place);
    this.objects = opts.objects ?? path.join(gitDir, 'objects');
    if (opts.objects) this.env.GIT_OBJECT_DIRECTORY = opts.objects;
    this.fileCap = opts.fileCap ?? fileCapBytes();
    const nestedOpts = { fileCap: this.fileCap, objects: this.objects };
    this.nested = new NestedShadows(workTree, this.git.bind(this), (rel) => new ShadowRepo(nestedGitDir(gitDir, rel), path.join(workTree, rel), nestedOpts));
    const own = isInside(gitDir, workTree) ? [this.ownFolder()] : [];
    if (opts.watch) this.watch = new TreeWatch(workTree, path.join(gitDir, 'wicket-watch'), own, opts.maxWatchedDirs);
  }

  static forProject(wicketHome: string, projectRoot: string, opts: ShadowOptions = {}): ShadowRepo {
    return new ShadowRepo(path.join(snapshotsRoot(wicketHome), projectSlug(projectRoot)), projectRoot, opts);
  }

  /** Stops watching the work tree. */
  close(): void {
    this.watch?.close();
  }

  /** wicket's own folder, relative, when it lies inside the project. */
  private ownFolder(): string {
    return path.relative(this.workTree, path.dirname(path.dirname(this.place.gitDir)));
  }

  git(args: readonly string[], opts?: GitRunOptions): Promise<GitResult> {
    return runGit(args, this.env, this.workTree, opts);
  }

  /** Creates the shadow repository on first use (and again if it was removed since), and notes that a scan uses it. */
  ensure(): Promise<void> {
    if (this.made && !existsSync(path.join(this.place.gitDir, 'HEAD'))) {
      this.ready = undefined;
      this.made = false;
    }
    this.ready ??= this.init().then(
      () => {
        this.made = true;
      },
      (err: unknown) => {
        this.ready = undefined;
        throw err;
      },
    );
    return this.ready;
  }

  private async init(): Promise<void> {
    const { gitDir } = this.place;
    if (!existsSync(path.join(gitDir, 'HEAD'))) {
      mkdirSync(gitDir, { recursive: true, mode: 0o700 });
      await runGit(['init', '-q', '--bare', gitDir], shadowEnv(undefined), gitDir);
      // git's own settings for the shadow, written at once (one `git config` per key costs a process each)
      appendFileSync(path.join(gitDir, 'config'), SHADOW_CONFIG);
      // wicket's own folder inside the project is never part of a snapshot
      if (isInside(gitDir, this.workTree)) this.exclude([this.ownFolder()]);
    }
  }

  private exclude(rels: readonly string[]): void {
    const file = path.join(this.place.gitDir, 'info', 'exclude');
    mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, rels.map((r) => `${exactPattern(r)}\n`).join(''));
  }

  /**
   * Makes the next snapshot cheap ahead of time (while the person types): git's full scan is made
   * now, and the watch armed, so that the next snapshot reads only what changed since. A watched
   * shadow whose watch the first scan could not arm (no list of the folders left out yet) scans a
   * second time. Queued like any snapshot: one that comes meanwhile waits for it, then takes the fast path.
   */
  async warm(): Promise<TreeState> {
    let state = await this.writeTree(BACKGROUND);
    if (this.watch && !this.known) state = await this.writeTree(BACKGROUND);
    return state;
  }

  /** Whether the next snapshot may skip git's full scan (the watch vouches for the last tree). */
  get watched(): boolean {
    return this.known !== undefined;
  }

  /** Records the work tree as it is now in the shadow index and returns its tree and modes (one at a time). */
  writeTree(run: GitRunOptions = {}): Promise<TreeState> {
    const next = this.queue.then(async () => this.nested.graft(await this.recordTree(run), this.nestedPaths));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async recordTree(run: GitRunOptions): Promise<TreeState> {
    await this.ensure();
    // in use: a prune leaves the repository alone (shadow-prune.ts)
    try {
      writeFileSync(path.join(this.place.gitDir, USED_STAMP), '');
    } catch {
      // only the prune reads it
    }
    const known = this.known;
    if (known?.kept() && this.watch) {
      // What the watch saw change since the last scan: nothing, or a few paths updated alone.
      const changed = await this.watch.take();
      if (changed && !changed.length) return known.state;
      const part = changed && (await partialScan(this.scanPlace(run), changed, known.leftOut, known.state.modes.map).catch(() => undefined));
      if (part) {
        this.nestedPaths = [...new Set([...this.nestedPaths, ...part.nested])];
        const state = { tree: await this.indexTree(), modes: { map: part.modes } };
        this.known = { ...known, state, kept: this.keeps(state.tree) };
        return state;
      }
    }
    this.known = undefined;
    // The folders the last scan left out (this process's, or the last one's, kept beside the index):
    // the watch skips them from the start, so that this very scan arms it when the list still holds,
    // and the modes walk starts with them at once (shadow-scan.ts).
    const watchSkip = this.leftOut ?? readLeftOut(this.place.gitDir);
    const armed = this.watch ? await this.watch.arm(watchSkip) : false;
    const before = this.indexStamp();
    this.fullScans++;
    const { leftOut, modes, nested } = await fullScan(this.scanPlace(run), watchSkip);
    if (!watchSkip || !sameList(watchSkip, leftOut)) writeLeftOut(this.place.gitDir, leftOut);
    this.leftOut = leftOut;
    this.nestedPaths = nested;
    const state = { tree: await this.indexTree(before), modes: { map: modes } };
    if (armed && watchSkip && sameList(watchSkip, leftOut)) this.known = { state, leftOut, kept: this.keeps(state.tree) };
    return state;
  }

  /** `run`: what every process of the scan is run with (its niceness). */
  private scanPlace(run: GitRunOptions): ScanPlace {
    return {
      workTree: this.workTree,
      fileCap: this.fileCap,
      always: isInside(this.place.gitDir, this.workTree) ? [this.ownFolder()] : [],
      git: (args, opts) => this.git(args, { ...run, ...opts }),
      locked: (args, opts) => this.locked(args, { ...run, ...opts }),
      exclude: (rels) => this.exclude(rels),
      // find exits 1 when a folder cannot be read, with the rest of its output (git cannot read that folder either)
      exec: (cmd, args) =>
        runCommand(cmd, args, process.env, this.workTree, { ...run, okCodes: [0, 1] }).then(
          (r) => (r.code === 0 || r.stdout.length ? r.stdout : undefined),
          () => undefined,
        ),
    };
  }

  /** The tree of the shadow index (`before`: its stamp before the scan; unchanged, the last tree is reused). */
  private async indexTree(before?: string): Promise<string> {
    const stamp = this.indexStamp();
    const cached = this.lastTree();
    if (stamp && stamp === before && cached?.stamp === stamp) return cached.tree;
    const tree = (await this.locked(['write-tree'])).stdout.toString('utf8').trim();
    if (stamp) await writeFileAtomic(path.join(this.place.gitDir, 'wicket-last-tree'), `${this.indexStamp()} ${tree}\n`).catch(() => undefined);
    return tree;
  }

  /** Takes a snapshot and names it for `meta`'s session and checkpoint. */
  async snapshot(meta: SnapshotMeta): Promise<Snapshot> {
    return this.commit(meta, await this.writeTree());
  }

  /**
   * Names `state` (from writeTree) as the snapshot for `meta`'s session and checkpoint: a commit of
   * its tree, whose parent holds the record of its modes (so that the record lives as long as it).
   * `named: false`: the commit is made ahead (the app's warm-up) but no ref names it; the next
   * snapshot of the same tree, modes and git state names it without running git.
   */
  async commit(meta: SnapshotMeta, state: TreeState, named = true): Promise<Snapshot> {
    const { tree } = state;
    const modes = await this.modesBlob(state.modes);
    const last = this.lastCommit;
    // The same tree, modes and git state as the last snapshot: its commit is named again (the checkpoint is in the ref's name).
    const same =
      last?.kept() && last.tree === tree && last.modes === modes && last.session === meta.session && last.head === meta.head && last.branch === meta.branch;
    let commit = last?.commit ?? '';
    if (!same) {
      const parent = await this.modesParent(modes);
      commit = (await this.git(['commit-tree', tree, '-p', parent], { input: JSON.stringify({ ...meta, modes }) })).stdout.toString('utf8').trim();
    }
    const ref = snapshotRef(meta.session, meta.checkpoint);
    if (named) await writeRef(this.place.gitDir, ref, commit, () => this.git(['update-ref', ref, commit]));
    this.lastCommit = { ...meta, commit, tree, modes, kept: this.keeps(commit) };
    return { ...meta, commit, tree, modes };
  }

  /** The blob of a modes record, written once (the same record as last time: the same blob). */
  private async modesBlob(rec: ModeRecord): Promise<string> {
    if (rec.blob) return rec.blob;
    const text = serializeModes(rec.map);
    const last = this.lastModes;
    if (last && last.text === text && last.kept()) return (rec.blob = last.blob);
    const blob = (await this.git(['hash-object', '-w', '--stdin'], { input: text })).stdout.toString('utf8').trim();
    this.lastModes = { text, blob, kept: this.keeps(blob) };
    rec.blob = blob;
    return blob;
  }

  /** A commit whose tree holds the modes blob (`modes`): the parent of the snapshots that use it. */
  private async modesParent(blob: string): Promise<string> {
    const last = this.lastModesParent;
    if (last && last.blob === blob && last.kept()) return last.commit;
    const tree = (await this.git(['mktree'], { input: `100644 blob ${blob}\tmodes\n` })).stdout.toString('utf8').trim();
    const commit = (await this.git(['commit-tree', tree], { input: 'modes' })).stdout.toString('utf8').trim();
    this.lastModesParent = { blob, commit, kept: this.keeps(commit) };
    return commit;
  }

  /** A modes record by its blob (an empty map when it cannot be read). */
  async modes(blob: string): Promise<ModeMap> {
    const bytes = (await this.blobs([blob])).get(blob);
    return bytes ? parseModes(bytes) : new Map();
  }

  /** The session's snapshots, oldest first. */
  list(session: string): Promise<Snapshot[]> {
    return listSnapshots(this.place.gitDir, this.git.bind(this), session);
  }

  /**
   * A forked session starts with its parent's snapshots: `from`'s refs are named again for `to`,
   * once (not when `to` has snapshots of its own already).
   */
  copySession(from: string, to: string): Promise<void> {
    return copySessionRefs(this.place.gitDir, this.git.bind(this), from, to);
  }

  /** Paths that differ from tree `from` to tree `to`. */
  diff(from: string, to: string): Promise<TreeChange[]> {
    return treeDiff(this.git.bind(this), from, to);
  }

  /** Which of `rels` are in any of `trees`. */
  present(trees: readonly string[], rels: readonly string[]): Promise<Set<string>> {
    return presentIn(this.git.bind(this), trees, rels);
  }

  /** Lines added and removed per path from `from` to `to` (undefined for binary files). */
  numstat(from: string, to: string): Promise<Map<string, { added: number; removed: number } | undefined>> {
    return treeNumstat(this.git.bind(this), from, to);
  }

  /** What each of `rels` is in `tree`: a file (`x`: executable), a folder, or absent. */
  kinds(tree: string, rels: readonly string[]): Promise<Map<string, 'f' | 'x' | 'd'>> {
    return treeKinds(this.git.bind(this), tree, rels);
  }

  /** The patch from `from` to `to`, as text. */
  async patch(from: string, to: string): Promise<string> {
    return (await this.git(['diff-tree', '-r', '-p', '--no-renames', '--no-color', '--no-ext-diff', from, to])).stdout.toString('utf8');
  }

  /** The bytes of blobs, read in one git process. */
  blobs(ids: readonly string[]): Promise<Map<string, Buffer>> {
    return readBlobs(this.git.bind(this), ids);
  }

  private keeps(id: string): () => boolean {
    return objectKept(this.objects, id);
  }

  /** Runs a command that takes the shadow index's lock, waiting while another wicket holds it. */
  private async locked(args: readonly string[], opts?: GitRunOptions): Promise<GitResult> {
    for (let i = 0; ; i++) {
      try {
        return await this.git(args, opts);
      } catch (err) {
        if (i >= LOCK_RETRIES || !String((err as Error).message).includes('.lock')) throw err;
        await new Promise((r) => setTimeout(r, 50 + i * 25));
      }
    }
  }

  private indexStamp(): string | undefined {
    try {
      const st = statSync(this.place.indexFile);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return undefined;
    }
  }

  private lastTree(): { stamp: string; tree: string } | undefined {
    try {
      const [stamp, tree] = readFileSync(path.join(this.place.gitDir, 'wicket-last-tree'), 'utf8').trim().split(' ');
      return stamp && tree ? { stamp, tree } : undefined;
    } catch {
      return undefined;
    }
  }
}
