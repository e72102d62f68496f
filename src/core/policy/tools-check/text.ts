/** `tools check`'s answers as both faces show them: one line per tool and question, and a summary. */
import { QUESTIONS, type ToolCheck } from './run.js';

/** `Read  nonsense  ok    14 of 17 inputs refused…`, a line per question; tool names padded to `width`. */
export function formatToolChecks(checks: readonly ToolCheck[], width = Math.max(0, ...checks.map((c) => c.tool.length))): string {
  const lines: string[] = [];
  for (const c of checks) {
    for (const q of QUESTIONS) lines.push(`${c.tool.padEnd(width)}  ${q.padEnd(8)}  ${c[q].status.padEnd(4)}  ${c[q].reason}`);
  }
  return `${lines.join('\n')}\n`;
}

export function summaryLine(tools: number, failed: number): string {
  return failed ? `${tools} tools checked: ${failed} FAILED.` : `${tools} tools checked: all answer the three questions.`;
}
