/**
 * Runs one `type: "prompt"` hook: a model (the hook's `model`, else the small fast one) reads the
 * hook's prompt and the event's JSON and answers `{"ok": true}` or `{"ok": false, "reason": …}`.
 * `ok: false` on Stop and SubagentStop sends the agent back to work with the reason; on any other
 * event it ends the turn, the reason shown to the person (a command hook's `continue: false`). The
 * answer is turned into what a command hook would have printed, so the same gate reads both. Never throws.
 */
import type { PromptHook } from '../base/hook-config.js';
import { limitedRun, type HookRunOptions, type HookRunResult } from './run-command.js';
import type { HookUsage } from './types.js';

/** One question to a model; rejects when it cannot answer. `onUsage` hears what the answer cost. */
export type AskModel = (prompt: string, o: { model?: string; system: string; signal: AbortSignal; onUsage?: (u: HookUsage) => void }) => Promise<string>;

const SYSTEM =
  'You check one condition for a coding agent, at one moment of its work. Read the condition and the data of the moment, then answer with a single JSON object and nothing else (no code fence, no other text): ' +
  '{"ok": true} when the condition is met and the agent may go on, or {"ok": false, "reason": "..."} when it is not, with a reason that tells the agent what is missing.';

export async function runPromptHook(hook: PromptHook, event: string, input: string, ask: AskModel | undefined, opts: HookRunOptions): Promise<HookRunResult> {
  const { signal, done } = limitedRun(opts);
  if (!ask) return done({ stdout: '', stderr: '', spawnError: 'no model is available to this hook' });
  const text = hook.prompt.includes('$ARGUMENTS')
    ? hook.prompt.replaceAll('$ARGUMENTS', input)
    : `${hook.prompt}\n\nThe data of this moment (${event}):\n${input}`;
  let answer: string;
  try {
    answer = await ask(text, { ...(hook.model ? { model: hook.model } : {}), system: SYSTEM, signal });
  } catch (err) {
    if (signal.aborted) return done({ stdout: '', stderr: '' });
    return done({ stdout: '', stderr: '', spawnError: `the model did not answer: ${(err as Error).message}` });
  }
  const verdict = parseVerdict(answer);
  if (!verdict) return done({ exitCode: 1, stdout: '', stderr: `the model's answer is not {"ok": true|false, "reason": …}: ${answer.trim().slice(0, 200)}` });
  if (verdict.ok) return done({ exitCode: 0, stdout: '', stderr: '' });
  const reason = verdict.reason || 'the condition of the prompt hook was not met';
  const output = event === 'Stop' || event === 'SubagentStop' ? { decision: 'block', reason } : { continue: false, stopReason: reason };
  return done({ exitCode: 0, stdout: JSON.stringify(output), stderr: '' });
}

/** The first JSON object in the answer (a code fence or a sentence around it is tolerated) with a boolean `ok`. */
export function parseVerdict(answer: string): { ok: boolean; reason?: string } | undefined {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    const value = JSON.parse(answer.slice(start, end + 1)) as { ok?: unknown; reason?: unknown };
    if (typeof value.ok !== 'boolean') return undefined;
    return { ok: value.ok, ...(typeof value.reason === 'string' && value.reason.trim() ? { reason: value.reason.trim() } : {}) };
  } catch {
    return undefined;
  }
}
