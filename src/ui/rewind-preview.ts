/**
 * What a rewind to a prompt would do to the code, for the rewind list and its confirmation: each
 * file the restore would change, with the lines changed since then (+added -removed).
 */
import type { FileChange, FileHistory } from '../core/file-history.js';
import { countChanges, diffHunks } from '../tools/fs/diff.js';
import { displayPath } from '../tools/fs/permissions.js';
import { isInside } from '../base/paths.js';

export interface FilePreview {
  path: string;
  action: FileChange['action'];
  added: number;
  removed: number;
  /** Why it cannot be put back, or why it cannot be read now. */
  reason?: string;
  /** Not under the working folder (shown with its absolute path). */
  outside?: boolean;
}

export type CodePreview =
  /** The files a restore would change (none: the code is as it was then). */
  | { kind: 'files'; files: FilePreview[] }
  /** The code cannot go back to this point: why. */
  | { kind: 'unavailable'; reason: string };

/** The restore to `checkpoint` as a preview, paths shown relative to `cwd`. Never throws. */
export async function previewRestore(history: FileHistory | undefined, checkpoint: number | undefined, cwd: string): Promise<CodePreview> {
  if (!history) return { kind: 'unavailable', reason: 'file checkpointing is off (fileCheckpointingEnabled)' };
  if (checkpoint === undefined) return { kind: 'unavailable', reason: 'no checkpoint was taken with this prompt' };
  try {
    const plan = await history.plan(checkpoint);
    if (!plan.ok) return { kind: 'unavailable', reason: plan.reason };
    return { kind: 'files', files: plan.changes.map((c) => fileLine(c, cwd)) };
  } catch (err) {
    return { kind: 'unavailable', reason: err instanceof Error ? err.message : String(err) };
  }
}

function fileLine(c: FileChange, cwd: string): FilePreview {
  // Changes made since then: from the state then to the state now.
  const then = c.action === 'write' && c.then ? c.then.toString('utf8') : '';
  const now = c.now ? c.now.toString('utf8') : '';
  const { added, removed } = c.action === 'unknown' ? { added: 0, removed: 0 } : countChanges(diffHunks(then, now));
  return {
    path: displayPath(c.path, cwd),
    action: c.action,
    added,
    removed,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(isInside(c.path, cwd) ? {} : { outside: true }),
  };
}

/** One line for the list: "No code changes", or the files with their counts. */
export function previewSummary(p: CodePreview | undefined, max = 2): string {
  if (!p) return '…';
  if (p.kind === 'unavailable') return `Code cannot be restored: ${p.reason}`;
  if (!p.files.length) return 'No code changes';
  const shown = p.files.slice(0, max).map(fileLabel);
  return p.files.length > max ? `${shown.join(', ')} and ${p.files.length - max} more` : shown.join(', ');
}

export function fileLabel(f: FilePreview): string {
  const where = f.outside ? ' (outside the working folder)' : '';
  if (f.action === 'unknown') return `${f.path}${where} (cannot be restored)`;
  if (f.action === 'delete') return `${f.path} +${f.added} -${f.removed} (new)${where}`;
  return `${f.path} +${f.added} -${f.removed}${where}`;
}
