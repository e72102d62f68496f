/**
 * What a rewind to a prompt would do to the code, for the rewind list and its confirmation: each
 * file the restore would change, whatever tool changed it (a snapshot of the project covers the
 * shell), with the lines changed since then (+added -removed); the files written outside the
 * project that cannot be put back; and whether the project's git state moved since.
 */
import type { AgentOptions } from '../core/agent-options.js';
import { Rewinder, type PlannedFile } from '../core/snapshots/rewinder.js';
import { displayPath } from '../tools/fs/permissions.js';
import { isInside } from '../base/paths.js';

export interface FilePreview {
  path: string;
  action: PlannedFile['action'];
  added: number;
  removed: number;
  /** Why it cannot be put back, or why it cannot be read now. */
  reason?: string;
  /** Not under the working folder (shown with its absolute path). */
  outside?: boolean;
  /** Its permission bits changed: `mode 644 → 600`. */
  mode?: string;
}

export type CodePreview =
  /** The files a restore would change (none: the code is as it was then). */
  | { kind: 'files'; files: FilePreview[]; notRestorable?: string[]; moved?: string }
  /** The code cannot go back to this point: why. */
  | { kind: 'unavailable'; reason: string };

const rewinders = new WeakMap<object, Rewinder>();

/** The session's code rewinder (one per session: it reuses the tree of the files now for a while). */
export function rewinderFor(base: Pick<AgentOptions, 'fileHistory' | 'snapshots'>): Rewinder | undefined {
  if (!base.fileHistory && !base.snapshots) return undefined;
  let r = rewinders.get(base);
  if (!r) rewinders.set(base, (r = new Rewinder(base.fileHistory, base.snapshots)));
  return r;
}

/** The restore to `checkpoint` as a preview, paths shown relative to `cwd`. Never throws. */
export async function previewRestore(rewinder: Rewinder | undefined, checkpoint: number | undefined, cwd: string): Promise<CodePreview> {
  if (!rewinder) return { kind: 'unavailable', reason: 'file checkpointing is off (fileCheckpointingEnabled)' };
  if (checkpoint === undefined) return { kind: 'unavailable', reason: 'no checkpoint was taken with this prompt' };
  const plan = await rewinder.plan(checkpoint);
  if (!plan.ok) return { kind: 'unavailable', reason: plan.reason };
  return {
    kind: 'files',
    files: plan.files.map((f) => fileLine(f, cwd)),
    ...(plan.notRestorable.length ? { notRestorable: plan.notRestorable.map((p) => displayPath(p, cwd)) } : {}),
    ...(plan.moved ? { moved: plan.moved } : {}),
  };
}

function fileLine(f: PlannedFile, cwd: string): FilePreview {
  return {
    path: `${displayPath(f.path, cwd)}${f.folder ? '/' : ''}`,
    action: f.action,
    added: f.added ?? 0,
    removed: f.removed ?? 0,
    ...(f.reason ? { reason: f.reason } : {}),
    ...(isInside(f.path, cwd) ? {} : { outside: true }),
    ...(f.mode ? { mode: f.mode } : {}),
  };
}

/** One line for the list: "No code changes", or the files with their counts. */
export function previewSummary(p: CodePreview | undefined, max = 2): string {
  if (!p) return '…';
  if (p.kind === 'unavailable') return `Code cannot be restored: ${p.reason}`;
  if (!p.files.length) return p.notRestorable?.length ? `No code changes (${p.notRestorable.length} not restorable)` : 'No code changes';
  const shown = p.files.slice(0, max).map(fileLabel);
  return p.files.length > max ? `${shown.join(', ')} and ${p.files.length - max} more` : shown.join(', ');
}

export function fileLabel(f: FilePreview): string {
  const where = f.outside ? ' (outside the working folder)' : '';
  if (f.action === 'unknown') return `${f.path}${where} (cannot be restored)`;
  if (f.action === 'delete') return `${f.path} +${f.added} -${f.removed} (new)${where}`;
  const mode = f.mode ? ` ${f.mode}` : '';
  if (f.mode && !f.added && !f.removed) return `${f.path}${mode}${where}`;
  return `${f.path} +${f.added} -${f.removed}${mode}${where}`;
}
