/**
 * Agent with `run_in_background`: the sub-agent starts under its own AbortController (Esc on the
 * turn does not reach it; TaskStop and wicket ending do), is registered as a background task, and
 * the call returns at once. Its report goes to its output file, and to the conversation with its
 * notice, which also carries its cost to the session.
 */
import { totalTokens } from '../../base/usage.js';
import type { AgentEvent } from '../../base/events.js';
import type { SubagentResult, SubagentSpec, ToolContext } from '../../base/tool.js';
import { outputFilePath } from '../bash/run.js';
import { noticeStatus, oneLine, stoppedByModel } from '../tasks/notify.js';
import { registerAgentTask, type AgentTask } from '../tasks/registry.js';
import { agentReport } from './report.js';

export interface BackgroundAgentStart {
  background: true;
  taskId: string;
  agentType: string;
  description: string;
  outputFile: string;
}

export function startBackgroundAgent(spec: SubagentSpec, description: string, ctx: ToolContext): BackgroundAgentStart {
  const controller = new AbortController();
  const outputFile = outputFilePath(ctx.wicketHome, ctx.sessionId, ctx.toolUseId, 'agent');
  // What counts as the session's (cost, denials, problems) travels with the notice.
  const events: AgentEvent[] = [];
  let taskId: string | undefined; // known once the task is registered, below
  const progress = progressReporter(spec, description, ctx, () => taskId);
  const run = ctx.runSubagent!(
    spec,
    controller.signal,
    (ev) => {
      if (ev.type === 'usage' || ev.type === 'warning' || ev.type === 'permission_denied') events.push(ev);
      progress(ev);
    },
    { background: true },
  );
  const task = registerAgentTask({
    description,
    agentType: spec.agentType,
    outputFile,
    abort: () => controller.abort(),
    run: run.then((r) => {
      const report = agentReport(r);
      return { report: report.text, failed: report.isError && r.reason !== 'aborted' };
    }),
  });
  taskId = task.id;
  const tracker = ctx.backgroundTasks;
  if (tracker) {
    tracker.started({ taskId: task.id, toolUseId: ctx.toolUseId, taskType: 'local_agent', description });
    void Promise.all([run.catch(() => undefined), task.settled]).then(([result]) => tracker.ended(noticeOf(task, ctx.toolUseId, result, events)));
  }
  return { background: true, taskId: task.id, agentType: spec.agentType, description, outputFile };
}

/**
 * Counts the sub-agent's tokens and tool calls, and tells the tracker each time it runs a tool
 * (stream-json's `task_progress`).
 */
function progressReporter(spec: SubagentSpec, description: string, ctx: ToolContext, taskId: () => string | undefined): (ev: AgentEvent) => void {
  const started = Date.now();
  let tokens = 0;
  let toolUses = 0;
  return (ev) => {
    if (ev.type === 'usage') tokens += totalTokens(ev.usage);
    if (ev.type !== 'tool_request') return;
    toolUses++;
    const id = taskId();
    if (!id) return;
    ctx.backgroundTasks?.progress?.({
      taskId: id,
      toolUseId: ctx.toolUseId,
      description,
      usage: { totalTokens: tokens, toolUses, durationMs: Date.now() - started },
      lastToolName: ev.name,
      subagentType: spec.agentType,
    });
  };
}

function noticeOf(task: AgentTask, toolUseId: string, result: SubagentResult | undefined, events: AgentEvent[]) {
  const status = noticeStatus(task);
  const how = status === 'stopped' ? (task.stoppedBy === 'person' ? 'was stopped by the user' : 'was stopped') : status === 'failed' ? 'failed' : 'completed';
  const u = result?.usage;
  return {
    taskId: task.id,
    toolUseId,
    taskType: 'local_agent' as const,
    status,
    summary: `Agent "${oneLine(task.description)}" ${how}`,
    outputFile: task.outputFile,
    result: task.report ?? '',
    usage: {
      totalTokens: u ? totalTokens(u) : 0,
      toolUses: result?.toolCalls ?? 0,
      durationMs: Date.now() - task.startedAt,
    },
    events,
    ...(stoppedByModel(task) ? { silent: true } : {}),
  };
}

export function backgroundStartText(out: BackgroundAgentStart): string {
  return [
    'Async agent launched successfully.',
    `task_id: ${out.taskId} (for TaskOutput and TaskStop)`,
    `output_file: ${out.outputFile} (its report is written there when it finishes)`,
    'The agent is working in the background. You will be notified when it completes, with its report: no need to check on it. ' +
      `Continue with other work; if you need its report before going on, TaskOutput with task_id "${out.taskId}" waits for it.`,
  ].join('\n');
}
