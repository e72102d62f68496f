/**
 * A code rewind, whatever tool changed the files: the snapshot of the project at the checkpoint
 * (snapshots.ts) covers every file in it (Bash, formatters, `git checkout` as much as Edit and Write);
 * the file history (file-history.ts) covers what Edit, Write and NotebookEdit changed outside the
 * project, and files a snapshot leaves out. Both /rewind in the app and `wicket rewind` use it.
 *
 * A restore refuses, with the reason, when the project's git HEAD or branch moved since the snapshot
 * (unless forced), and is itself snapshotted first: the checkpoint it returns (`undo`) goes back to
 * the files as they were just before it.
 */
import path from 'node:path';
import { errorMessage } from '../../base/errors.js';
import { isInside } from '../../base/paths.js';
import type { ReadState } from '../../base/read-state.js';
import type { Snapshot, TreeChange, TreeState } from '../../session/shadow-git.js';
import { octal } from '../../session/shadow-modes.js';
import { modeChanges, modesThen, type ModeChange } from './mode-diff.js';
import { countChanges, diffHunks, formatUnifiedDiff } from '../../tools/fs/diff.js';
import type { FileChange, FileHistory } from '../file-history.js';
import { headMoved, projectHead } from './project-head.js';
import type { Snapshots } from './snapshots.js';
import { ABSENT, GITLINK, applyModes, applyTreeChanges } from './tree-apply.js';

/** One file a restore would change. */
export interface PlannedFile {
  /** Absolute. */
  path: string;
  /** `write`: back to earlier bytes; `delete`: it did not exist then; `unknown`: its earlier state is not known. */
  action: 'write' | 'delete' | 'unknown';
  /** Lines added and removed since then (undefined: binary or not known). */
  added?: number;
  removed?: number;
  reason?: string;
  /** Seen by a snapshot of the project (any tool); otherwise by the file history (Edit, Write, NotebookEdit). */
  fromSnapshot?: boolean;
  /** Its permission bits changed since then: `mode 644 → 600` (the restore puts them back). */
  mode?: string;
  /** A folder (its mode alone changed). */
  folder?: boolean;
}

export type CodePlan =
  | {
      ok: true;
      files: PlannedFile[];
      /** Files written outside the project since then (by Bash): they cannot be put back. */
      notRestorable: string[];
      /** Why the project's git state differs from the checkpoint's (a restore needs confirming). */
      moved?: string;
    }
  | { ok: false; reason: string };

export interface CodeRestoreReport {
  restored: string[];
  deleted: string[];
  failed: Array<{ path: string; reason: string }>;
  notRestorable: string[];
  /** Why nothing was done. */
  refused?: string;
  /** The checkpoint that holds the files as they were just before this restore. */
  undo?: number;
}

export class Rewinder {
  private now: { state: TreeState; at: number } | undefined;

  constructor(
    readonly fileHistory: FileHistory | undefined,
    readonly snapshots: Snapshots | undefined,
  ) {}

  /** What restoring checkpoint `id` would change, against the files as they are now. Never throws. */
  async plan(id: number): Promise<CodePlan> {
    try {
      const snap = await this.snapshots?.at(id);
      const fh = this.fileHistory ? await this.fileHistory.plan(id) : { ok: true as const, changes: [] };
      if (!fh.ok && !snap) return { ok: false, reason: fh.reason };
      const fhPaths = fh.ok ? fh.changes.map((c) => c.path) : [];
      const fromSnap = snap ? await this.snapshotFiles(snap, fhPaths) : { files: [], covered: () => false };
      const edits = fh.ok ? fh.changes.filter((c) => !fromSnap.covered(c.path)).map(editFile) : [];
      const moved = snap ? headMoved(snap, await projectHead(this.snapshots!.root)) : undefined;
      const files = [...fromSnap.files, ...edits];
      return { ok: true, files, notRestorable: this.outside(id, files), ...(moved ? { moved } : {}) };
    } catch (err) {
      return { ok: false, reason: errorMessage(err) };
    }
  }

  /** The changes since checkpoint `id` as a patch from now back to then (what a restore would do); '' without a snapshot. */
  async patch(id: number): Promise<string> {
    const snap = await this.snapshots?.at(id);
    if (!snap || !this.snapshots) return '';
    return this.snapshots.repo.patch((await this.nowTree(0)).tree, snap.tree);
  }

  /**
   * What changed since checkpoint `id`, as a unified diff per file from then to now (/diff without
   * git): the snapshot's patch for the project, the file history's for the files only it saw; a file
   * whose earlier state was not saved is named. '' when nothing changed; `show` gives a path as shown.
   */
  async diffSince(id: number, show: (absPath: string) => string): Promise<string> {
    const snap = await this.snapshots?.at(id);
    const parts: string[] = [];
    let covered: (p: string) => boolean = () => false;
    if (snap && this.snapshots) {
      const now = (await this.nowTree(0)).tree;
      parts.push((await this.snapshots.repo.patch(snap.tree, now)).trimEnd());
      covered = await this.coveredBy([snap.tree, now], await this.snapshots.repo.diff(snap.tree, now), await this.editedPaths(id));
    }
    const fh = this.fileHistory ? await this.fileHistory.plan(id) : undefined;
    if (fh?.ok) for (const c of fh.changes) if (!covered(c.path)) parts.push(editPatch(c, show(c.path)));
    return parts.filter(Boolean).join('\n');
  }

  /** Puts the code back to checkpoint `id`. `force`: also when the project's git state moved since. Never throws. */
  async restore(id: number, opts: { force?: boolean; readState?: ReadState } = {}): Promise<CodeRestoreReport> {
    const report: CodeRestoreReport = { restored: [], deleted: [], failed: [], notRestorable: [] };
    try {
      const snap = await this.snapshots?.at(id);
      if (snap && !opts.force) {
        const moved = headMoved(snap, await projectHead(this.snapshots!.root));
        if (moved) return { ...report, refused: `${moved}, so the files then belong to another state of the repository; confirm to restore anyway (--force)` };
      }
      if (this.fileHistory && !this.fileHistory.canRestore(id) && !snap) return { ...report, refused: 'that point is older than the checkpoints kept' };
      // The files as they are now, kept first: a restore to `undo` puts them back.
      const undo = this.fileHistory?.checkpoint() ?? Date.now();
      report.undo = undo;
      let covered: (p: string) => boolean = () => false;
      if (snap && this.snapshots) {
        const now = await this.snapshots.take(undo);
        this.now = undefined;
        const changes = await this.snapshots.repo.diff(snap.tree, now.tree);
        covered = await this.coveredBy([snap.tree, now.tree], changes, await this.editedPaths(id));
        const applied = await applyTreeChanges(this.snapshots.repo, changes);
        if (snap.modes) {
          const repo = this.snapshots.repo;
          await applyModes(this.snapshots.root, await modesThen(repo, snap.tree, await repo.modes(snap.modes), now.state.modes.map), applied);
        }
        merge(report, applied);
        for (const c of changes) if (c.oldMode === GITLINK || c.newMode === GITLINK) report.notRestorable.push(path.join(this.snapshots.root, c.path));
      }
      if (this.fileHistory) merge(report, await this.fileHistory.restore(id, opts.readState, covered));
      for (const p of [...report.restored, ...report.deleted]) opts.readState?.forget(p);
      report.notRestorable.push(...this.outside(id, []));
      return report;
    } catch (err) {
      return { ...report, refused: errorMessage(err) };
    }
  }

  private outside(id: number, planned: readonly PlannedFile[]): string[] {
    const known = new Set(planned.map((f) => f.path));
    return (this.snapshots?.outsideSince(id) ?? []).filter((p) => !known.has(p));
  }

  /** The tree of the files now, reused for `maxAgeMs` (a dialog plans every prompt at once). */
  private async nowTree(maxAgeMs = 3000): Promise<TreeState> {
    if (this.now && Date.now() - this.now.at <= maxAgeMs) return this.now.state;
    const state = await this.snapshots!.repo.writeTree();
    this.now = { state, at: Date.now() };
    return state;
  }

  private async editedPaths(id: number): Promise<string[]> {
    const fh = this.fileHistory ? await this.fileHistory.plan(id) : undefined;
    return fh?.ok ? fh.changes.map((c) => c.path) : [];
  }

  /** Paths a snapshot answers for: inside the project, and in the snapshot or in the tree now (not left out by it). */
  private async coveredBy(trees: readonly string[], changes: readonly TreeChange[], edited: readonly string[]): Promise<(p: string) => boolean> {
    const root = this.snapshots!.root;
    const rel = (p: string) => path.relative(root, p).split(path.sep).join('/');
    const inside = edited.filter((p) => isInside(p, root) && p !== root).map(rel);
    const present = await this.snapshots!.repo.present(trees, inside);
    for (const c of changes) present.add(c.path);
    return (p) => isInside(p, root) && present.has(rel(p));
  }

  private async snapshotFiles(snap: Snapshot, edited: readonly string[]): Promise<{ files: PlannedFile[]; covered: (p: string) => boolean }> {
    const repo = this.snapshots!.repo;
    const state = await this.nowTree();
    const now = state.tree;
    const [changes, counts, thenModes] = await Promise.all([
      repo.diff(snap.tree, now),
      repo.numstat(snap.tree, now),
      snap.modes ? repo.modes(snap.modes) : undefined,
    ]);
    const root = this.snapshots!.root;
    const modes = new Map((thenModes ? await modeChanges(repo, snap.tree, thenModes, now, state.modes.map) : []).map((m) => [m.path, m]));
    const files = changes.map((c): PlannedFile => {
      const n = counts.get(c.path);
      const m = modes.get(c.path);
      modes.delete(c.path);
      const base = { path: path.join(root, c.path), fromSnapshot: true, ...(n ? { added: n.added, removed: n.removed } : {}), ...modeNote(m) };
      if (c.oldMode === GITLINK || c.newMode === GITLINK)
        return { ...base, action: 'unknown', reason: 'a nested git repository: its files are not in the snapshot' };
      return { ...base, action: c.oldMode === ABSENT ? 'delete' : 'write' };
    });
    // Files and folders whose mode alone changed.
    for (const m of modes.values())
      files.push({ path: path.join(root, m.path), action: 'write', fromSnapshot: true, ...modeNote(m), ...(m.kind === 'd' ? { folder: true } : {}) });
    return { files, covered: await this.coveredBy([snap.tree, now], changes, edited) };
  }
}

function modeNote(m: ModeChange | undefined): { mode?: string } {
  return m ? { mode: `mode ${octal(m.mode)} → ${octal(m.now)}` } : {};
}

function editFile(c: FileChange): PlannedFile {
  const then = c.action === 'write' && c.then ? c.then.toString('utf8') : '';
  const now = c.now ? c.now.toString('utf8') : '';
  const counts = c.action === 'unknown' ? {} : countChanges(diffHunks(then, now));
  return { path: c.path, action: c.action, ...(c.reason ? { reason: c.reason } : {}), ...counts };
}

/** One file the file history saw, as a unified diff from then to now. */
function editPatch(c: FileChange, shown: string): string {
  if (c.action === 'unknown') return `${shown}: changed; its earlier state was not saved${c.reason ? ` (${c.reason})` : ''}`;
  const then = c.action === 'write' && c.then ? c.then.toString('utf8') : '';
  const diff = formatUnifiedDiff(shown, diffHunks(then, c.now ? c.now.toString('utf8') : ''), c.action === 'delete').trimEnd();
  return c.now ? diff : diff.replace(`+++ b/${shown}`, '+++ /dev/null');
}

function merge(into: CodeRestoreReport, r: { restored: string[]; deleted: string[]; failed: Array<{ path: string; reason: string }>; refused?: string }): void {
  into.restored.push(...r.restored);
  into.deleted.push(...r.deleted);
  into.failed.push(...r.failed);
  if (r.refused && !into.refused) into.failed.push({ path: '(edits)', reason: r.refused });
}
