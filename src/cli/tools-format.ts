/** How `wicket tools check` prints its answers: one line per tool and question, or JSON for CI. */
import { QUESTIONS, type ToolCheck, type ToolsCheckReport } from '../core/policy/tools-check/run.js';

/** `Read  nonsense  ok    14 of 17 inputs refused…`, a line per question; tool names padded to `width`. */
export function formatToolChecks(checks: readonly ToolCheck[], width = Math.max(0, ...checks.map((c) => c.tool.length))): string {
  const lines: string[] = [];
  for (const c of checks) {
    for (const q of QUESTIONS) lines.push(`${c.tool.padEnd(width)}  ${q.padEnd(8)}  ${c[q].status.padEnd(4)}  ${c[q].reason}`);
  }
  return `${lines.join('\n')}\n`;
}

export function toolChecksJson(report: ToolsCheckReport): unknown {
  return {
    failed: report.failed,
    tools: report.tools.map((c) => ({ tool: c.tool, source: c.source, nonsense: c.nonsense, denied: c.denied, beside: c.beside })),
  };
}
