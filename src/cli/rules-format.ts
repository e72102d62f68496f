/** How the `wicket rules` commands print a verdict, a rule's place and a replay's flips. */
import path from 'node:path';
import type { RuleOrigin, Verdict } from '../core/policy/judge.js';
import type { Flip, ReplayReport, Side } from '../core/policy/replay.js';

/** A file as a person finds it: relative to the project when inside it. */
export function shownPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

export function ruleText(rule: RuleOrigin, cwd: string): string {
  const where = rule.file ? ` in ${shownPath(rule.file, cwd)}${rule.line ? `:${rule.line}` : ''}` : '';
  return `${rule.list} rule ${rule.rule} [${rule.source}]${where}`;
}

function indented(text: string): string {
  return text.replace(/\n/g, '\n      ');
}

const WORDS: Record<string, string> = { allow: 'allowed', ask: 'would ask', deny: 'denied', refused: 'refused' };

/** The gate trace of a judged call, one gate a line, then the decision and who made it. */
export function formatVerdict(name: string, input: unknown, v: Verdict, cwd: string): string {
  const lines = [`${name} ${JSON.stringify(input)}`];
  for (const r of v.trace) {
    if (r.gate === 'execute') break;
    if (r.gate === 'permission') continue;
    lines.push(`  ${r.gate.padEnd(11)} ${r.verdict}${r.detail ? `  ${indented(r.detail)}` : ''}`);
  }
  if (v.gate === 'permission') lines.push(`  ${'permission'.padEnd(11)} ${v.decision}  ${v.by}`);
  for (const n of v.notes) lines.push(`  note: ${n} (today; the permission gate judged the call anyway)`);
  lines.push(`decision: ${WORDS[v.decision]} at the ${v.gate} gate${v.reason ? ` — ${indented(v.reason)}` : ''}`);
  if (v.gate === 'permission' || v.gate === 'hooks') lines.push(v.rule ? `decided by: ${ruleText(v.rule, cwd)}` : `decided by: ${v.by}`);
  return `${lines.join('\n')}\n`;
}

function sideText(s: Side, cwd: string): string {
  if (s.rule) return ruleText(s.rule, cwd);
  return s.by ?? (s.decision === 'ran' ? 'ran (allowed or approved; the transcript does not say which)' : 'as recorded');
}

function callText(f: Flip): string {
  const input = f.call.input as Record<string, unknown>;
  const main = input?.command ?? input?.file_path ?? input?.url ?? input?.pattern ?? input?.notebook_path;
  const text = typeof main === 'string' ? main : JSON.stringify(f.call.input);
  return `${f.call.name}(${text.length > 80 ? `${text.slice(0, 77)}...` : text})`;
}

/** The replay as a table: one block per flip, then a summary line. */
export function formatReplay(report: ReplayReport, cwd: string): string {
  const [was, now] = report.compared === 'current-vs-candidate' ? ['current', 'candidate'] : ['recorded', 'now'];
  const lines: string[] = [];
  for (const f of report.flips) {
    lines.push(
      `${f.before.decision} → ${f.after.decision}  ${callText(f)}  (session ${f.call.sessionId.slice(0, 8)}${f.call.timestamp ? `, ${f.call.timestamp}` : ''})`,
    );
    lines.push(`    ${was}: ${sideText(f.before, cwd)}`);
    lines.push(`    ${now}: ${sideText(f.after, cwd)}`);
  }
  const d = report.decisions;
  lines.push(
    `${report.calls} calls in ${report.sessions} sessions replayed (${now}: ${d.allow} allowed, ${d.ask} would ask, ${d.deny} denied, ${d.refused} refused); ` +
      `${report.flips.length} ${report.flips.length === 1 ? 'decision differs' : 'decisions differ'} (${was} → ${now}).`,
  );
  return `${lines.join('\n')}\n`;
}

/** The replay for CI: every flip with both sides. */
export function replayJson(report: ReplayReport): unknown {
  return {
    compared: report.compared,
    calls: report.calls,
    sessions: report.sessions,
    decisions: report.decisions,
    flips: report.flips.map((f) => ({
      sessionId: f.call.sessionId,
      toolUseId: f.call.toolUseId,
      tool: f.call.name,
      input: f.call.input,
      ...(f.call.timestamp ? { timestamp: f.call.timestamp } : {}),
      change: `${f.before.decision} → ${f.after.decision}`,
      before: f.before,
      after: f.after,
    })),
  };
}
