/** What a sub-agent's run comes to, in words for the model: its report, or why there is none. */
import type { SubagentResult } from '../../base/tool.js';

export function agentReport(out: SubagentResult): { text: string; isError: boolean } {
  const last = out.text ? `\nIts last words: ${out.text}` : '';
  if (out.reason === 'error') return { text: `The agent failed: ${out.error ?? 'unknown error'}${last}`, isError: true };
  if (out.reason === 'aborted') return { text: `The agent was interrupted before it finished.${last}`, isError: true };
  const note = out.reason === 'max_turns' ? 'The agent stopped at its turn limit; this is where it got to:\n' : '';
  return { text: `${note}${out.text || '(the agent gave no report)'}`, isError: false };
}

export function agentTrailer(out: SubagentResult): string {
  return `[agent ${out.agentId}: ${out.turns} turn${out.turns === 1 ? '' : 's'}, ${out.toolCalls} tool call${out.toolCalls === 1 ? '' : 's'}]`;
}
