/**
 * The session's runner of inline shell in custom commands and skills (commands/inline-shell.ts):
 * each command is a Bash call through the session's gates, outside the model's turn.
 */
import { inlineBashVia, type InlineRun } from '../commands/inline-shell.js';
import type { AgentOptions } from './agent-options.js';
import { runCallOutsideTurn } from './agent-loop.js';

/** Runs inline shell as the session's Bash calls, with a command's `allowed-tools` as extra allow rules. */
export function inlineBashRunner(opts: Omit<AgentOptions, 'askUser'>): (command: string, allowedTools: readonly string[]) => Promise<InlineRun> {
  return inlineBashVia((call, o) =>
    runCallOutsideTurn({ ...opts, askUser: o.askUser }, call, { tools: opts.tools, askUser: o.askUser, allow: o.allow, keepContext: true }),
  );
}
