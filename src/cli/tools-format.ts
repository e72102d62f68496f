/** `wicket tools check --json`: every tool's three answers, for CI. */
import type { ToolsCheckReport } from '../core/policy/tools-check/run.js';

export function toolChecksJson(report: ToolsCheckReport): unknown {
  return {
    failed: report.failed,
    tools: report.tools.map((c) => ({ tool: c.tool, source: c.source, nonsense: c.nonsense, denied: c.denied, beside: c.beside })),
  };
}
