/**
 * Inline shell in custom commands (`!`git status``), as Claude Code runs it: before the prompt is
 * sent, each command runs as a Bash call through the same gates as the model's calls (hooks,
 * rules, mode), with the command file's `allowed-tools` as allow rules for that run, and its output
 * takes its place. Nothing asks a person here: a call the gates do not allow stops the command
 * with the reason, and nothing is sent.
 */
import { randomHex } from '../base/ids.js';
import { parseRule } from '../base/rule-parse.js';
import type { AskUser } from '../base/permission-types.js';
import type { CallOutcome, ToolContext } from '../base/tool.js';

/** `!` and a command in backquotes, on one line. */
const INLINE = /!`([^`\n]+)`/;

export function hasInlineShell(text: string): boolean {
  return INLINE.test(text);
}

export type InlineRun = { ok: true; output: string } | { ok: false; reason: string };

/** Runs one inline command (the caller knows the session and the command's allowed-tools). */
export type RunInline = (command: string) => Promise<InlineRun>;

export type InlineExpansion = { ok: true; text: string } | { ok: false; message: string };

/** `text` with each `!`cmd`` replaced by its output, in order; the first refusal stops it. */
export async function expandInlineShell(text: string, run: RunInline): Promise<InlineExpansion> {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(new RegExp(INLINE, 'g'))) {
    const command = m[1]!.trim();
    const r = await run(command);
    if (!r.ok) {
      const hint = `allow it with allowed-tools in the command file's frontmatter, e.g. allowed-tools: Bash(${command.split(/\s+/)[0]}:*)`;
      return { ok: false, message: `the command's inline shell !\`${command}\` did not run: ${r.reason}; ${hint}` };
    }
    parts.push(text.slice(last, m.index), r.output.replace(/\s+$/, ''));
    last = m.index! + m[0].length;
  }
  parts.push(text.slice(last));
  return { ok: true, text: parts.join('') };
}

/** The same, over a way to run one call through the gates (a tool's `runGatedCall`). */
export function inlineBashVia(runCall: NonNullable<ToolContext['runGatedCall']>): (command: string, allowedTools: readonly string[]) => Promise<InlineRun> {
  return async (command, allowedTools) => {
    let asked: string | undefined;
    const askUser: AskUser = async (req) => {
      asked = req.reason;
      return {
        behavior: 'deny',
        message: 'inline shell in a command runs only when its allowed-tools or the rules allow it',
        answeredBy: 'no one to ask for inline shell',
        nobodyAsked: true,
      };
    };
    const call = { id: `toolu_inline_${randomHex(12)}`, name: 'Bash', input: { command } };
    const allow = allowedTools.map((r) => parseRule(r, 'session'));
    const outcome = await runCall(call, { askUser, allow });
    if (asked) return { ok: false, reason: `it needs permission (${asked})` };
    const refused = outcome.trace.find((g) => g.gate !== 'execute' && (g.verdict === 'refused' || g.verdict === 'denied' || g.verdict === 'aborted'));
    if (refused || outcome.stop) return { ok: false, reason: refused?.detail ?? outcome.stop ?? 'refused by the gates' };
    return { ok: true, output: resultText(outcome) };
  };
}

function resultText(outcome: CallOutcome): string {
  const c = outcome.result.content;
  return typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
