/**
 * /tools: the session's loaded tools answer the three questions of `wicket tools check` (nonsense
 * input, a deny rule, a call beside another) in a scratch copy of the project. The read-only MCP
 * tools are not run here (their servers run in the project itself); `wicket tools check` starts
 * servers of its own in the copy and runs them.
 */
import { errorMessage } from '../../base/errors.js';
import { checkTools, makeScratch } from '../../core/policy/tools-check/run.js';
import { formatToolChecks, summaryLine } from '../../core/policy/tools-check/text.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

export const toolsCommand: SlashCommand = {
  name: 'tools',
  argumentHint: '[NAME…]',
  description: 'Check that each tool refuses nonsense, stops at a deny rule and runs safely beside another',
  source: 'builtin',
  run: (args, s) => check(args.trim().split(/\s+/).filter(Boolean), s),
};

async function check(names: string[], s: SessionControl): Promise<CommandResult> {
  const all = s.options.tools;
  const tools = names.length ? all.filter((t) => names.includes(t.name)) : all;
  if (!tools.length) return { kind: 'info', tone: 'error', text: `No loaded tool named ${names.join(', ')}. /tools checks them all.` };
  let scratch: ReturnType<typeof makeScratch> | undefined;
  try {
    scratch = makeScratch(s.options.projectRoot);
    const report = await checkTools({ scratch, env: s.options.env, tools, runMcp: false });
    const text = `${formatToolChecks(report.tools)}${summaryLine(report.tools.length, report.failed)}`;
    return { kind: 'info', text, ...(report.failed ? { tone: 'warning' as const } : {}) };
  } catch (err) {
    return { kind: 'info', tone: 'error', text: `/tools: ${errorMessage(err)}` };
  } finally {
    scratch?.remove();
  }
}
