/** Glob output → the text the model reads. Pure. */
import { formatCount } from '../../base/paths.js';
import { topLevelHint } from './pattern.js';

export interface GlobOutput {
  /** The pattern as the model gave it. */
  pattern: string;
  /** The searched directory (absolute). */
  root: string;
  /** Matching files as shown to the model, newest first. */
  files: string[];
  /** How many files matched in all (files.length when nothing was cut). */
  total: number;
  /** The search hit the time limit; `total` counts only what was found before. */
  timedOut: boolean;
  durationMs: number;
}

export function globModelText(out: GlobOutput): string {
  if (out.files.length === 0) {
    const lines = [`No files found matching "${out.pattern}" in ${out.root}.`];
    const hint = topLevelHint(out.pattern);
    if (hint) lines.push(hint);
    if (out.timedOut) lines.push('The search timed out before finishing; narrow the pattern or pass a smaller path.');
    return lines.join('\n');
  }
  const lines = [...out.files];
  if (out.total > out.files.length) {
    lines.push(`(Found ${formatCount(out.total)} files; showing first ${out.files.length}, newest first. Narrow the pattern or pass path.)`);
  }
  if (out.timedOut) lines.push('(The search timed out before finishing, so the list may be incomplete. Narrow the pattern or pass path.)');
  return lines.join('\n');
}

export function globSummaryLine(out: GlobOutput): string {
  const n = out.total;
  const found = `Found ${formatCount(n)} ${n === 1 ? 'file' : 'files'}`;
  return out.total > out.files.length ? `${found} (showing ${out.files.length})` : found;
}
