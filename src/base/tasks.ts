/**
 * What a tool reports of the background work it starts (ToolContext.backgroundTasks): a task
 * started, how far it is (TaskProgress), and its notice when it ended (TaskNotice, in events.ts).
 * The queue that carries notices to the model is the session's (core/task-notices.ts).
 */
import type { TaskNotice, TaskProgress, TaskType } from './events.js';

export interface StartedTask {
  taskId: string;
  toolUseId?: string;
  taskType: TaskType;
  description: string;
  /** When a run waiting for it gives up and stops it (ms since the epoch); undefined: no limit. */
  deadline?: number;
  /** Stops the task (its deadline passed while a run waited for it); its notice follows. */
  stop?: () => void;
}

/** What a tool gets (ToolContext.backgroundTasks) to report the background work it starts. */
export interface TaskTracker {
  started(task: StartedTask): void;
  ended(notice: TaskNotice): void;
  progress?(p: TaskProgress): void;
}
