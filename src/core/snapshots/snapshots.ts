/**
 * Snapshots of the whole project around a session's checkpoints (session/shadow-git.ts). Every
 * prompt begins a checkpoint (core/file-history.ts); before the first call after it whose tool is not
 * read-only (Bash, Edit, Write, an MCP tool…), the work tree is snapshotted and the snapshot named for
 * that checkpoint. The project as it was at checkpoint c is then the first snapshot taken at or after
 * c: nothing wicket ran changed it in between.
 *
 * What the call waits for is kept small: the scan starts as soon as the model's stream names such a
 * tool (`start`, while its input streams), and the app scans ahead while the person types (`warm`),
 * so that the prompt's snapshot takes the watched path (session/tree-watch.ts). A scan whose turn
 * runs no such call (a Bash command that only read) is not named. A call refused by a gate still
 * cost a scan, made in the background.
 *
 * Files a Bash call writes outside the project (when the command says which) are noted per
 * checkpoint, so that a restore can name them as not restorable.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../base/fs/write-file-atomic.js';
import { refSession, type ShadowRepo, type Snapshot, type SnapshotMeta, type TreeState } from '../../session/shadow-git.js';
import { writesOutside } from './outside-paths.js';
import { projectHead } from './project-head.js';

type Scanned = { head: Awaited<ReturnType<typeof projectHead>>; state: TreeState };

export class Snapshots {
  private checkpoint: number | undefined;
  /** This checkpoint's scan, once started; and its snapshot, once named. */
  private scanned: Promise<Scanned | undefined> | undefined;
  private taken: Promise<Snapshot | undefined> | undefined;
  private outside: Record<string, string[]> | undefined;
  private forked: Promise<void> | undefined;
  /** Why the last snapshot failed (shown by a restore that finds none). */
  lastError: string | undefined;
  /** The checkpoint whose snapshot failed and was said so (once per checkpoint). */
  private unsaved: number | undefined;

  /** `parent`: the session this one was forked from, whose snapshots it starts with. */
  constructor(
    readonly repo: ShadowRepo,
    readonly session: string,
    private readonly homeDir: string,
    private readonly parent?: string,
  ) {}

  /** A fork's copy of its parent's snapshots and outside notes, made once (failing, the fork starts without them). */
  fromParent(): Promise<void> {
    const parent = this.parent;
    if (!parent || parent === this.session) return Promise.resolve();
    this.forked ??= this.repo.copySession(parent, this.session).then(
      () => this.copyOutside(parent),
      () => undefined,
    );
    return this.forked;
  }

  private copyOutside(parent: string): void {
    const from = outsideFile(this.repo.place.gitDir, parent);
    try {
      if (existsSync(from) && !existsSync(this.outsideFile())) {
        mkdirSync(path.dirname(this.outsideFile()), { recursive: true, mode: 0o700 });
        copyFileSync(from, this.outsideFile());
      }
      this.outside = undefined;
    } catch {
      // the fork starts without its parent's notes
    }
  }

  get root(): string {
    return this.repo.workTree;
  }

  /** A prompt went in: its checkpoint is `id`; no snapshot is taken until something may change. */
  begin(id: number): void {
    this.checkpoint = id;
    this.scanned = undefined;
    this.taken = undefined;
  }

  /**
   * The model's stream has named a tool that may change files (its input still streaming): the scan
   * of the project for this checkpoint starts now, so that it overlaps the streaming. It is named as
   * the checkpoint's snapshot only when a call that is not read-only is about to run (`beforeChange`),
   * and every such call awaits the same one; when none runs (the command only read), it is dropped.
   * Nothing changed the project between the prompt and the scan: only read-only calls ran.
   *
   * A call's PreToolUse hooks wait for this scan (`scanDone`), so what a hook writes into the project
   * always lands after the snapshot: a rewind to this prompt undoes it too, like the call's own
   * changes (the hook wrote it for the call). Never throws.
   */
  start(): void {
    if (this.checkpoint === undefined) return;
    this.scanned ??= this.scan().catch((err: unknown) => {
      this.lastError = err instanceof Error ? err.message : String(err);
      return undefined;
    });
  }

  /** Before a call's PreToolUse hooks: this checkpoint's scan is started if need be, and done. */
  async scanDone(): Promise<void> {
    this.start();
    await this.scanned;
  }

  /**
   * While nothing runs (the app waits for the first prompt): git's full scan of the project is made
   * ahead, not named for any checkpoint, and the watch armed, so that the first prompt's snapshot
   * takes the watched fast path. Skipped once a scan has started. Never throws.
   */
  warm(): Promise<void> {
    if (this.scanned) return Promise.resolve();
    // its commit too (unnamed): the first snapshot of the same tree and git state then runs no git at all
    const ahead = async () => {
      const [state, head] = await Promise.all([this.repo.warm(), projectHead(this.root)]);
      await this.repo.commit(this.meta(0, head), state, false);
    };
    return ahead().catch(() => undefined);
  }

  /**
   * Before a call that is not read-only: snapshots the project once per checkpoint (every call waits
   * for the same snapshot, whose scan `start` began if the stream named the tool), and notes what a
   * Bash command writes outside the project. Returns why the snapshot could not be taken, the first
   * time a call of this checkpoint meets the failure (a rewind to it cannot undo what follows). Never throws.
   */
  async beforeChange(toolName: string, input: unknown, cwd: string): Promise<string | undefined> {
    const id = this.checkpoint;
    if (id === undefined) return undefined;
    this.start();
    const scanned = this.scanned;
    this.taken ??= scanned!
      .then((s) => s && this.name(id, s))
      .catch((err: unknown) => {
        this.lastError = err instanceof Error ? err.message : String(err);
        return undefined;
      });
    const snap = await this.taken;
    const command = toolName === 'Bash' && input && typeof input === 'object' ? (input as { command?: unknown }).command : undefined;
    if (typeof command === 'string') this.noteOutside(id, writesOutside(command, cwd, this.root, this.homeDir));
    if (snap || this.lastError === undefined || this.unsaved === id) return undefined;
    this.unsaved = id;
    return this.lastError;
  }

  /** Snapshots the project now, named for checkpoint `id` (also used before a restore, so that it can be undone). */
  async take(id: number): Promise<Snapshot & { state: TreeState }> {
    return this.name(id, await this.scan());
  }

  /** The work tree recorded now, with the project's git HEAD. */
  private async scan(): Promise<Scanned> {
    const [head, state] = await Promise.all([projectHead(this.root), this.repo.writeTree(), this.fromParent()]);
    return { head, state };
  }

  /** A scan named as the snapshot of checkpoint `id`. */
  private async name(id: number, { head, state }: Scanned): Promise<Snapshot & { state: TreeState }> {
    const snap = await this.repo.commit(this.meta(id, head), state);
    return { ...snap, state };
  }

  private meta(checkpoint: number, head: Scanned['head']): SnapshotMeta {
    return { session: this.session, checkpoint, ...(head ? { head: head.head, branch: head.branch } : {}) };
  }

  /** Stops watching the project. */
  close(): void {
    this.repo.close();
  }

  /** The project as it was at checkpoint `id`: the first snapshot at or after it (undefined: none since). */
  async at(id: number): Promise<Snapshot | undefined> {
    await this.fromParent();
    return (await this.repo.list(this.session)).find((s) => s.checkpoint >= id);
  }

  /** Files written outside the project since checkpoint `id`, as far as the commands said. */
  outsideSince(id: number): string[] {
    const all = this.loadOutside();
    const paths = Object.entries(all)
      .filter(([cp]) => Number(cp) >= id)
      .flatMap(([, p]) => p);
    return [...new Set(paths)].sort();
  }

  private noteOutside(id: number, paths: readonly string[]): void {
    if (!paths.length) return;
    const all = this.loadOutside();
    const known = new Set(all[id] ?? []);
    const fresh = paths.filter((p) => !known.has(p));
    if (!fresh.length) return;
    all[id] = [...known, ...fresh];
    try {
      mkdirSync(path.dirname(this.outsideFile()), { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
    void writeFileAtomic(this.outsideFile(), `${JSON.stringify(all)}\n`, { mode: 0o600 }).catch(() => undefined);
  }

  private loadOutside(): Record<string, string[]> {
    if (this.outside) return this.outside;
    try {
      const raw = JSON.parse(readFileSync(this.outsideFile(), 'utf8')) as unknown;
      const ok = raw && typeof raw === 'object' && !Array.isArray(raw);
      const entries = ok ? Object.entries(raw as Record<string, unknown>) : [];
      this.outside = Object.fromEntries(
        entries.filter(([, v]) => Array.isArray(v)).map(([k, v]) => [k, (v as unknown[]).filter((p): p is string => typeof p === 'string')]),
      );
    } catch {
      this.outside = {};
    }
    return this.outside;
  }

  private outsideFile(): string {
    return outsideFile(this.repo.place.gitDir, this.session);
  }
}

/** Where a session's notes of files written outside the project are kept, beside its snapshots. */
export function outsideFile(gitDir: string, session: string): string {
  return path.join(gitDir, 'wicket-outside', `${refSession(session)}.json`);
}
