/**
 * `!` at the start of the prompt: the rest runs as a Bash call through the tool's gates, outside
 * the model's turn, as Claude Code's bash mode. The person typed the command, so a gate that would
 * ask takes that as the answer; deny rules and PreToolUse hooks still stop it. The command and its
 * output join the conversation as Claude Code writes them (`<bash-input>`, `<bash-stdout>`,
 * `<bash-stderr>`), read by the model with the next prompt; the model is not asked now.
 */
import type { AgentOptions } from '../core/agent-options.js';
import { runCallOutsideTurn } from '../core/agent-loop.js';
import { randomHex } from '../base/ids.js';
import type { AskUser } from '../base/permission-types.js';
import type { ModelResult } from '../base/events.js';

export interface ShellRun {
  /** What the person sees under the command. */
  output: string;
  /** The call did not run: the gate's words. */
  refused?: string;
  failed: boolean;
  /** The conversation's record: `<bash-input>` and its output. */
  messages: [string, string];
}

/** The command typed after `!`, or undefined when the text is no shell command. */
export function shellCommandOf(text: string): string | undefined {
  if (!text.startsWith('!')) return undefined;
  const command = text.slice(1).trim();
  return command ? command : undefined;
}

/** The person typed it: an ask is answered yes, and the trace says so. */
const typedByPerson: AskUser = async () => ({ behavior: 'allow' });

export async function runShellCommand(opts: Omit<AgentOptions, 'askUser'>, command: string, signal: AbortSignal): Promise<ShellRun> {
  const bash = opts.tools.find((t) => t.name === 'Bash');
  const input = `<bash-input>${command}</bash-input>`;
  if (!bash) {
    const refused = 'the Bash tool is not available in this session';
    return { output: refused, refused, failed: true, messages: [input, `<bash-stderr>Not run: ${refused}</bash-stderr>`] };
  }
  const call = { id: `toolu_bang_${randomHex(8)}`, name: 'Bash', input: { command, description: 'Run by the user with !' } };
  const outcome = await runCallOutsideTurn({ ...opts, askUser: typedByPerson, signal }, call, { tools: opts.tools, askUser: typedByPerson });
  const text = textOf(outcome.result);
  const stopped = outcome.trace.find((g) => g.verdict === 'denied' || g.verdict === 'refused');
  if (stopped) {
    const refused = text.replace(/^<tool_use_error>(?:\[\w+\] )?|<\/tool_use_error>$/g, '');
    return { output: refused, refused, failed: true, messages: [input, `<bash-stderr>Not run: ${refused}</bash-stderr>`] };
  }
  const failed = outcome.result.isError === true;
  return {
    output: text,
    failed,
    messages: [
      input,
      failed ? `<bash-stdout></bash-stdout><bash-stderr>${text}</bash-stderr>` : `<bash-stdout>${text}</bash-stdout><bash-stderr></bash-stderr>`,
    ],
  };
}

function textOf(result: ModelResult): string {
  if (typeof result.content === 'string') return result.content;
  return result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}
