/**
 * A background task's end, told to the conversation that started it (core/task-notices.ts): its
 * status and a one-line summary, in Claude Code's words.
 */
import type { TaskTracker } from '../../base/tasks.js';
import type { NoticeStatus } from '../../base/events.js';
import { stopBackgroundTask, type BackgroundTask, type BashTask } from './registry.js';

export function noticeStatus(task: BackgroundTask): NoticeStatus {
  return task.status === 'killed' ? 'stopped' : task.status === 'failed' ? 'failed' : 'completed';
}

/** The model stopped it itself (TaskStop): it already knows. */
export function stoppedByModel(task: BackgroundTask): boolean {
  return task.status === 'killed' && task.stoppedBy === 'model';
}

/**
 * Reports a background command to `tracker`: started now, and its notice once it has ended. A run
 * that waits for it stops it `timeoutMs` after its start.
 */
export function trackBashTask(task: BashTask, tracker: TaskTracker | undefined, toolUseId: string, timeoutMs: number): void {
  if (!tracker) return;
  const description = task.description ?? task.command;
  tracker.started({
    taskId: task.id,
    toolUseId,
    taskType: 'local_bash',
    description,
    deadline: task.startedAt + timeoutMs,
    stop: () => void stopBackgroundTask(task.id, 2000, 'deadline'),
  });
  void task.settled.then(() =>
    tracker.ended({
      taskId: task.id,
      toolUseId,
      taskType: 'local_bash',
      status: noticeStatus(task),
      summary: `Background command "${oneLine(description)}" ${bashOutcome(task, timeoutMs)}`,
      outputFile: task.outputFile,
      ...(stoppedByModel(task) ? { silent: true } : {}),
    }),
  );
}

function bashOutcome(task: BashTask, timeoutMs: number): string {
  if (task.status === 'killed')
    return task.stoppedBy === 'deadline'
      ? `was stopped after its timeout of ${timeoutMs} ms`
      : task.stoppedBy === 'person'
        ? 'was stopped by the user'
        : 'was stopped';
  if (task.status === 'failed') return `failed with exit code ${task.exitCode ?? 'none (killed by a signal)'}`;
  return `completed (exit code ${task.exitCode ?? 0})`;
}

export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
