/**
 * Runs one `type: "agent"` hook: a short sub-agent (the hook's `model`, else the small fast one)
 * gets the hook's prompt and the event's JSON, looks at the project with read-only tools (Read,
 * Grep, Glob; at most 50 tool rounds) and answers `{"ok": true}` or `{"ok": false, "reason": …}`,
 * by the StructuredOutput tool or as its final text. `ok: false` is read as a prompt hook's with
 * `continueOnBlock: true`: the reason goes back to the model and the turn goes on (PreToolUse: the
 * call is denied; Stop/SubagentStop: the agent goes back to work; UserPromptSubmit: the prompt is
 * blocked), and on PermissionRequest it changes nothing. The sub-agent runs in the core
 * (core/hook-agent.ts); it is handed in as a runner. Never throws.
 */
import type { AgentHook, HookGroup } from '../base/hook-config.js';
import { limitedRun, type HookRunOptions, type HookRunResult } from './run-command.js';
import { parseVerdict } from './run-prompt.js';
import { noHooks, type HookUsage, type Hooks } from './types.js';

/** The tools the sub-agent may use, and how many tool rounds it gets. */
export const AGENT_HOOK_TOOLS = ['Read', 'Grep', 'Glob'];
export const AGENT_HOOK_MAX_TURNS = 50;

export interface HookAgentRequest {
  prompt: string;
  system: string;
  model?: string;
  toolNames: string[];
  maxTurns: number;
  /** The gate its own tool calls pass: the session's hooks, without agent hooks (no hook starts another). */
  hooks: Hooks;
  signal: AbortSignal;
}

export interface HookAgentAnswer {
  /** Its final text. */
  text: string;
  /** What it handed to StructuredOutput, if it did. */
  structured?: Record<string, unknown>;
  /** Why it stopped, when not because it was done (an API error, the turn limit). */
  error?: string;
  /** What its requests cost: counted as the session's. */
  usage: HookUsage[];
  /** Its warnings (a hook of its own that failed, a refused call). */
  warnings: string[];
}

/** Runs the sub-agent of an agent hook; rejects when it cannot start. */
export type HookAgentRunner = (r: HookAgentRequest) => Promise<HookAgentAnswer>;

/** What an agent hook needs besides the hook itself: the runner, the gate for its sub-agent, and where its cost and warnings go. */
export interface AgentHookDeps {
  runAgent?: HookAgentRunner | undefined;
  agentHooks?: (() => Hooks) | undefined;
  onAgentRun?: ((a: Pick<HookAgentAnswer, 'usage' | 'warnings'>) => void) | undefined;
}

export const AGENT_HOOK_SYSTEM =
  'You verify one condition for a coding agent, at one moment of its work. Read the condition and the data of the moment, then look at the project with the Read, Grep and Glob tools as far as you need to (be quick: as few steps as you can). ' +
  'When you know, call the StructuredOutput tool once with {"ok": true} when the condition is met and the agent may go on, or {"ok": false, "reason": "..."} when it is not, with a reason that tells the agent what is missing. ' +
  'If you cannot call that tool, end with that JSON object alone as your answer.';

/** The JSON Schema of the answer the sub-agent gives through StructuredOutput. */
export const AGENT_HOOK_VERDICT_SCHEMA = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['ok'],
  additionalProperties: false,
};

export async function runAgentHook(hook: AgentHook, event: string, input: string, deps: AgentHookDeps, opts: HookRunOptions): Promise<HookRunResult> {
  const { signal, done } = limitedRun(opts);
  if (!deps.runAgent) return done({ stdout: '', stderr: '', spawnError: 'no sub-agent can be started for this hook' });
  const prompt = hook.prompt.includes('$ARGUMENTS')
    ? hook.prompt.replaceAll('$ARGUMENTS', input)
    : `${hook.prompt}\n\nThe data of this moment (${event}):\n${input}`;
  let answer: HookAgentAnswer;
  try {
    const hooks = deps.agentHooks?.() ?? noHooks;
    answer = await deps.runAgent({
      prompt,
      system: AGENT_HOOK_SYSTEM,
      ...(hook.model ? { model: hook.model } : {}),
      toolNames: AGENT_HOOK_TOOLS,
      maxTurns: AGENT_HOOK_MAX_TURNS,
      hooks,
      signal,
    });
  } catch (err) {
    if (signal.aborted) return done({ stdout: '', stderr: '' });
    return done({ stdout: '', stderr: '', spawnError: `the sub-agent did not run: ${(err as Error).message}` });
  }
  deps.onAgentRun?.(answer);
  if (signal.aborted) return done({ stdout: '', stderr: '' });
  const verdict = answer.structured ? parseVerdict(JSON.stringify(answer.structured)) : parseVerdict(answer.text);
  if (!verdict) {
    const why = answer.error
      ? `the sub-agent stopped without an answer: ${answer.error}`
      : `the sub-agent's answer is not {"ok": true|false, "reason": …}: ${answer.text.trim().slice(0, 200)}`;
    return done({ exitCode: 1, stdout: '', stderr: why });
  }
  if (verdict.ok) return done({ exitCode: 0, stdout: '', stderr: '' });
  const output = blockOutput(event, verdict.reason || 'the condition of the agent hook was not met');
  return done({ exitCode: 0, stdout: output ? JSON.stringify(output) : '', stderr: '' });
}

/** `ok: false` as a command hook would have said it, for the event (a prompt hook's with continueOnBlock). */
export function blockOutput(event: string, reason: string): Record<string, unknown> | undefined {
  if (event === 'PermissionRequest') return undefined;
  if (event === 'PreToolUse') return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
  return { decision: 'block', reason };
}

/** The groups with their agent hooks left out: what a hook's own sub-agent runs with. */
export function withoutAgentHooks(groups: HookGroup[]): HookGroup[] {
  return groups.map((g) => (g.hooks.some((h) => h.type === 'agent') ? { ...g, hooks: g.hooks.filter((h) => h.type !== 'agent') } : g));
}
