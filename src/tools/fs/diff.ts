/**
 * Diffs for the person: the `diff` package's structured patch, computed only over the region that
 * changed (common leading and trailing lines are cut first, so a one-line edit in a 5 MB file stays
 * cheap), with line numbers shifted back to the whole file.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

export type DiffHunk = StructuredPatchHunk;

const CONTEXT = 3;

export function diffHunks(oldText: string, newText: string): DiffHunk[] {
  if (oldText === newText) return [];
  const oldLines = splitKeepingEnds(oldText);
  const newLines = splitKeepingEnds(newText);
  let head = 0;
  const maxHead = Math.min(oldLines.length, newLines.length);
  while (head < maxHead && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail++;
  }
  const skipHead = Math.max(0, head - CONTEXT);
  const skipTail = Math.max(0, tail - CONTEXT);
  const oldMid = oldLines.slice(skipHead, oldLines.length - skipTail).join('');
  const newMid = newLines.slice(skipHead, newLines.length - skipTail).join('');
  const patch = structuredPatch('a', 'b', oldMid, newMid, undefined, undefined, { context: CONTEXT });
  return patch.hunks.map((h) => ({ ...h, oldStart: h.oldStart + skipHead, newStart: h.newStart + skipHead }));
}

function splitKeepingEnds(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
    i = text.indexOf('\n', start);
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
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
