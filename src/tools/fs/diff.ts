/**
 * Diffs for the person: the `diff` package's structured patch, computed only over the region that
 * changed (the common head and tail are cut first, so a one-line edit in a 5 MB file stays cheap),
 * with line numbers shifted back to the whole file.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

export type DiffHunk = StructuredPatchHunk;

const CONTEXT = 3;

export function diffHunks(oldText: string, newText: string): DiffHunk[] {
  if (oldText === newText) return [];
  const { start, oldEnd, newEnd, skippedLines } = changedRegion(oldText, newText);
  const patch = structuredPatch('a', 'b', oldText.slice(start, oldEnd), newText.slice(start, newEnd), undefined, undefined, {
    context: CONTEXT,
  });
  return patch.hunks.map((h) => ({ ...h, oldStart: h.oldStart + skippedLines, newStart: h.newStart + skippedLines }));
}

/**
 * The stretch of both texts that differs, widened to whole lines plus CONTEXT lines on each side.
 * Outside it the texts are equal, so the diff of the stretch is the diff of the whole.
 */
function changedRegion(a: string, b: string): { start: number; oldEnd: number; newEnd: number; skippedLines: number } {
  const head = commonPrefix(a, b);
  const tail = commonSuffix(a, b, Math.min(a.length, b.length) - head);
  // Back to the start of the line holding the first difference, then CONTEXT lines more.
  let start = head === 0 ? 0 : a.lastIndexOf('\n', head - 1) + 1;
  for (let i = 0; i < CONTEXT && start > 0; i++) start = start < 2 ? 0 : a.lastIndexOf('\n', start - 2) + 1;
  // On to the end of the line where the common tail starts, then CONTEXT lines more.
  let oldEnd = a.length - tail;
  for (let i = 0; i <= CONTEXT && oldEnd < a.length; i++) {
    const nl = a.indexOf('\n', oldEnd);
    oldEnd = nl === -1 ? a.length : nl + 1;
  }
  const cut = a.length - oldEnd;
  let skippedLines = 0;
  for (let i = a.indexOf('\n'); i !== -1 && i < start; i = a.indexOf('\n', i + 1)) skippedLines++;
  return { start, oldEnd, newEnd: b.length - cut, skippedLines };
}

const BLOCK = 16 * 1024;

/** Length of the common prefix; compares whole blocks first (fast even on concatenated strings). */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= max && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let n = 0;
  while (n + BLOCK <= max && a.slice(a.length - n - BLOCK, a.length - n) === b.slice(b.length - n - BLOCK, b.length - n)) n += BLOCK;
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

/** Unified diff text (`--- a/x`, `+++ b/x`, `@@ -l,s +l,s @@`) for logs, print mode and the UI. */
export function formatUnifiedDiff(displayPath: string, hunks: DiffHunk[], created = false): string {
  if (hunks.length === 0) return '';
  const out = [created ? '--- /dev/null' : `--- a/${displayPath}`, `+++ b/${displayPath}`];
  for (const h of hunks) {
    // As `diff` formats it: an empty side names the line before the change.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    out.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`);
    for (const line of h.lines) out.push(line);
  }
  return out.join('\n') + '\n';
}

/** Lines added and removed, for summaries like "+3 -1". */
export function countChanges(hunks: DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const line of h.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}
