/**
 * The loop's hooks that need more than one call: Stop (may send the model back to work),
 * PostToolBatch (sees a whole turn's results), CwdChanged and StopFailure (the turn ended on an API error).
 * A hook that throws decides nothing.
 */
import type { Hooks, StopFailureType } from '../hooks/types.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentEvent } from '../base/events.js';
import { textOf } from '../base/conversation.js';
import { FatalError } from '../base/errors.js';
import type { CallOutcome, ToolCall } from '../base/tool.js';
import { listBackgroundTasks, taskLabel } from '../tools/tasks/registry.js';

/** Stop hooks: the reason to go on, when one blocks the stop. */
export async function stopHook(opts: AgentOptions, text: string, active: boolean): Promise<string | undefined> {
  if (!opts.hooks.stop) return undefined;
  try {
    const out = await opts.hooks.stop({ lastAssistantMessage: text, stopHookActive: active, backgroundTasks: runningTasks() }, opts.signal);
    return out.block;
  } catch {
    return undefined;
  }
}

/** PostToolBatch hooks, with each call's result as text. */
export async function batchHook(
  results: Array<{ call: ToolCall; outcome: CallOutcome }>,
  opts: AgentOptions,
): Promise<{ stop?: string; additionalContext?: string }> {
  if (!opts.hooks.postToolBatch) return {};
  const calls = results.map(({ call, outcome }) => ({
    toolName: call.name,
    toolInput: call.input,
    toolUseId: call.id,
    toolResponse: textOf(outcome.result.content),
  }));
  return opts.hooks.postToolBatch(calls, opts.signal).catch(() => ({}));
}

/** What kind of API failure ended the turn (StopFailure hooks match on it). */
export function failureType(failure: unknown): StopFailureType {
  if (!(failure instanceof FatalError)) return 'unknown';
  if (failure.status === 429) return 'rate_limit';
  if (failure.code === 'auth') return 'authentication_failed';
  if (failure.code === 'bad_request' || failure.code === 'not_found') return 'invalid_request';
  return failure.code === 'api' ? 'server_error' : 'unknown';
}

/** CwdChanged hooks, once a turn's calls moved the session's folder; then their notices. */
export async function cwdHook(opts: AgentOptions, previousCwd: string): Promise<void> {
  await opts.hooks.cwdChanged?.({ previousCwd, cwd: opts.state.cwd }, opts.signal).catch(() => undefined);
}

/** What the hooks have for the session since last asked: their notices as warnings, then what agent hooks spent (counted as the session's cost). */
export function hookEvents(hooks: Hooks): AgentEvent[] {
  const notices = (hooks.drainNotices?.() ?? []).map((message): AgentEvent => ({ type: 'warning', message }));
  return [...notices, ...(hooks.drainUsage?.() ?? []).map((u): AgentEvent => ({ type: 'usage', ...u }))];
}

/** The Stop hook's `background_tasks`: what still runs in the background as the model stops (a hook may want it to wait). */
function runningTasks(): Array<Record<string, unknown>> {
  return listBackgroundTasks()
    .filter((t) => t.status === 'running')
    .map((t) => ({
      task_id: t.id,
      task_type: t.kind === 'agent' ? 'local_agent' : 'local_bash',
      status: t.status,
      description: taskLabel(t),
      ...(t.kind === 'bash' ? { command: t.command } : { agent_type: t.agentType }),
      started_at: new Date(t.startedAt).toISOString(),
    }));
}
