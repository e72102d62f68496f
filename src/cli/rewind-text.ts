/** What `wicket rewind` prints: a restore's plan before it, and its report after. */
import path from 'node:path';
import { isInside } from '../base/paths.js';
import type { CodePlan, CodeRestoreReport, PlannedFile } from '../core/snapshots/rewinder.js';

function shown(p: string, cwd: string): string {
  return isInside(p, cwd) ? path.relative(cwd, p) || '.' : p;
}

function fileLine(f: PlannedFile, cwd: string): string {
  const counts = f.added === undefined ? '' : ` +${f.added} -${f.removed}`;
  const what = f.action === 'delete' ? ' (created since: removed)' : f.action === 'unknown' ? ` (cannot be restored: ${f.reason ?? 'unknown'})` : '';
  return `  ${shown(f.path, cwd)}${f.folder ? '/' : ''}${counts}${f.mode ? ` ${f.mode}` : ''}${what}\n`;
}

export function describePlan(plan: CodePlan, cwd: string): string {
  if (!plan.ok) return `The code cannot be restored: ${plan.reason}.\n`;
  let out = plan.files.length
    ? `The code would be restored in ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}:\n`
    : 'No file changed since then.\n';
  for (const f of plan.files) out += fileLine(f, cwd);
  if (plan.notRestorable.length) {
    out += 'Not restorable (written outside the project by a command):\n';
    for (const p of plan.notRestorable) out += `  ${p}\n`;
  }
  if (plan.moved) out += `Warning: ${plan.moved}; a restore needs --force.\n`;
  return out;
}

export function describeReport(r: CodeRestoreReport, prompt: string, cwd: string): string {
  const where = `before "${prompt.trim().split('\n')[0]!.slice(0, 60)}"`;
  if (r.refused) return `The code was not restored ${where}: ${r.refused}.\n`;
  const list = (ps: string[]) => ps.map((p) => shown(p, cwd)).join(', ');
  let out = '';
  if (r.restored.length + r.deleted.length) {
    out += `Restored the code to ${where}: ${r.restored.length} file${r.restored.length === 1 ? '' : 's'} written back`;
    out += r.restored.length ? ` (${list(r.restored)})` : '';
    out += r.deleted.length ? `; ${r.deleted.length} removed that did not exist then (${list(r.deleted)})` : '';
    out += '.\n';
  } else if (!r.failed.length) out += `The code was already as it was ${where}: nothing to restore.\n`;
  for (const f of r.failed) out += `Could not restore ${shown(f.path, cwd)}: ${f.reason}\n`;
  if (r.notRestorable.length) out += `Not restorable (written outside the project by a command): ${r.notRestorable.join(', ')}\n`;
  return out;
}
