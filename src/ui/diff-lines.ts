/**
 * Unified diff text → rows with line numbers, for DiffView. Also builds that text from two strings
 * (permission previews) with the `diff` package.
 */
import { structuredPatch } from 'diff';

export type DiffRow = { kind: 'add' | 'remove' | 'context'; oldNo?: number; newNo?: number; text: string } | { kind: 'gap' };

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function parseUnifiedDiff(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let hunks = 0;
  for (const raw of diff.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('--- ') || line.startsWith('+++ ')) continue;
    const h = HUNK.exec(line);
    if (h) {
      if (hunks++ > 0) rows.push({ kind: 'gap' });
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      continue;
    }
    if (hunks === 0 || line.startsWith('\\')) continue;
    const text = clean(line.slice(1));
    if (line.startsWith('+')) rows.push({ kind: 'add', newNo: newNo++, text });
    else if (line.startsWith('-')) rows.push({ kind: 'remove', oldNo: oldNo++, text });
    else if (line.startsWith(' ')) rows.push({ kind: 'context', oldNo: oldNo++, newNo: newNo++, text });
  }
  return rows;
}

/** A unified diff between two texts (3 lines of context), line numbers offset by `startLine - 1`. */
export function unifiedDiff(name: string, oldText: string, newText: string, startLine = 1): string {
  const patch = structuredPatch(name, name, oldText, newText, undefined, undefined, { context: 3 });
  const out = [`--- a/${name}`, `+++ b/${name}`];
  for (const h of patch.hunks) {
    const o = h.oldStart + startLine - 1;
    const n = h.newStart + startLine - 1;
    out.push(`@@ -${o},${h.oldLines} +${n},${h.newLines} @@`, ...h.lines);
  }
  return patch.hunks.length ? `${out.join('\n')}\n` : '';
}

export function countDiff(rows: DiffRow[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const r of rows) {
    if (r.kind === 'add') added++;
    else if (r.kind === 'remove') removed++;
  }
  return { added, removed };
}

function clean(text: string): string {
  return text.replace(/\t/g, '  ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
