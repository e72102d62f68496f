/**
 * A `!` command as a job of the app's queue (use-agent.ts): it runs through the Bash tool's gates
 * (shell-command.ts), its output is shown under it, and the command and output join the
 * conversation and the session file without a model request.
 */
import { appendUser } from '../../base/conversation.js';
import { errorMessage } from '../../base/errors.js';
import type { ApiMessage } from '../../base/events.js';
import type { AgentOptions } from '../../core/agent-options.js';
import type { TranscriptWriter } from '../../session/transcript.js';
import type { AgentView } from '../agent-state.js';
import { runShellCommand } from '../shell-command.js';

export async function shellJob(
  base: Omit<AgentOptions, 'askUser' | 'signal'>,
  command: string,
  signal: AbortSignal,
  into: { view: AgentView; messages: ApiMessage[]; transcript?: TranscriptWriter },
): Promise<void> {
  const { view, messages, transcript } = into;
  try {
    const run = await runShellCommand({ ...base, signal }, command, signal);
    view.add({ kind: 'shell', command, output: run.output, failed: run.failed, ...(run.refused ? { refused: true } : {}) });
    const blocks = run.messages.map((text) => ({ type: 'text' as const, text }));
    appendUser(messages, blocks);
    transcript?.message({ role: 'user', content: blocks });
  } catch (err) {
    view.add({ kind: 'info', tone: 'error', text: `! ${command} failed: ${errorMessage(err)}` });
  }
  view.apply({ type: 'done', reason: signal.aborted ? 'aborted' : 'completed', numTurns: 0, finalText: '' });
}
