/** What a code restore did, in words for the transcript: how many files, which, and what failed. */
import type { RestoreReport } from '../core/file-history.js';
import type { CodeRestoreReport } from '../core/snapshots/rewinder.js';
import { displayPath } from '../tools/fs/permissions.js';
import { oneLine } from './rewind.js';

export interface ReportLine {
  text: string;
  tone: 'info' | 'warning';
}

export function restoreReport(report: RestoreReport | CodeRestoreReport, prompt: string, cwd: string): ReportLine[] {
  const where = `before "${oneLine(prompt)}"`;
  if (report.refused) return [{ tone: 'warning', text: `The code was not restored ${where}: ${report.refused}.` }];
  const files = (paths: string[]) => paths.map((p) => displayPath(p, cwd)).join(', ');
  const count = report.restored.length + report.deleted.length;
  const parts = [
    ...(report.restored.length ? [`${plural(report.restored.length, 'file')} restored (${files(report.restored)})`] : []),
    ...(report.deleted.length ? [`${plural(report.deleted.length, 'file')} deleted that did not exist then (${files(report.deleted)})`] : []),
  ];
  const lines: ReportLine[] = [
    count
      ? { tone: 'info', text: `Restored the code to ${where}: ${parts.join('; ')}.` }
      : report.failed.length
        ? { tone: 'warning', text: `The code was not restored to ${where}.` }
        : { tone: 'info', text: `The code was already as it was ${where}: nothing to restore.` },
  ];
  for (const f of report.failed) lines.push({ tone: 'warning', text: `Could not restore ${displayPath(f.path, cwd)}: ${f.reason}` });
  const outside = 'notRestorable' in report ? report.notRestorable : [];
  if (outside.length) lines.push({ tone: 'warning', text: `Not restorable (written outside the project by a command): ${files(outside)}` });
  return lines;
}

/** The rewind point of the files as they were just before a restore (undoing it). */
export function undoText(prompt: string): string {
  return `(before the rewind to before "${oneLine(prompt, 40)}")`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
