/**
 * The errors a change brought: those of the document after it that were not there before, matched by
 * message and code (not position, since an edit moves lines), counted so a second copy of an old
 * error is new. Only errors: warnings and hints are not the break the model must hear of.
 */
import path from 'node:path';
import type { DiagnosticsReport } from '../base/lsp.js';
import type { Diagnostic } from './diagnostics-store.js';

/** At most this many lines in all, whatever the number of files. */
export const MAX_DIAGNOSTIC_LINES = 30;

const isError = (d: Diagnostic) => d.severity === undefined || d.severity === 1;
const keyOf = (d: Diagnostic) => `${d.source ?? ''}\u0000${d.code ?? ''}\u0000${d.message}`;

export function newErrors(before: readonly Diagnostic[] | undefined, after: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Map<string, number>();
  for (const d of before ?? []) if (isError(d)) seen.set(keyOf(d), (seen.get(keyOf(d)) ?? 0) + 1);
  const out: Diagnostic[] = [];
  for (const d of after) {
    if (!isError(d)) continue;
    const left = seen.get(keyOf(d)) ?? 0;
    if (left > 0) seen.set(keyOf(d), left - 1);
    else out.push(d);
  }
  return out;
}

/** `path:line:col: message [code]` lines (1-based, path relative to `root` when inside it), bounded. */
export function diagnosticsReport(byFile: ReadonlyArray<{ file: string; errors: readonly Diagnostic[] }>, root: string): DiagnosticsReport | undefined {
  const all = byFile.flatMap(({ file, errors }) => errors.map((d) => diagnosticLine(file, d, root)));
  if (!all.length) return undefined;
  return { lines: all.slice(0, MAX_DIAGNOSTIC_LINES), count: all.length };
}

export function diagnosticLine(file: string, d: Diagnostic, root: string): string {
  const rel = path.relative(root, file);
  const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
  const message = d.message.split('\n')[0]!.trim();
  const code = d.code !== undefined && d.code !== '' ? ` [${d.source ? `${d.source} ` : ''}${d.code}]` : '';
  return `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${message}${code}`;
}

/** The note appended to a tool result. */
export function diagnosticsNote(report: DiagnosticsReport): string {
  const more = report.count > report.lines.length ? `\n… and ${report.count - report.lines.length} more` : '';
  const what = report.count === 1 ? 'a new error' : `${report.count} new errors`;
  return `<new-diagnostics>\nThe language server reports ${what} in the changed file(s):\n${report.lines.join('\n')}${more}\n</new-diagnostics>`;
}
