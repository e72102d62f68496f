/**
 * What a tool reports of the background work it starts (ToolContext.backgroundTasks), and what the
 * session tells of it: a task started, how far it is, and its notice when it ended. The queue that
 * carries notices to the model is the session's (core/task-notices.ts).
 */
import type { AgentEvent } from './events.js';

export type TaskType = 'local_bash' | 'local_agent';
export type NoticeStatus = 'completed' | 'failed' | 'stopped';

export interface TaskNotice {
  taskId: string;
  /** The call that started the task. */
  toolUseId?: string;
  taskType: TaskType;
  status: NoticeStatus;
  /** One line: what ended and how ("Background command "npm test" failed with exit code 1"). */
  summary: string;
  outputFile: string;
  /** An agent's report, handed to the model with the notice. */
  result?: string;
  usage?: { totalTokens: number; toolUses: number; durationMs: number };
  /** Events of the task to count as the session's when the notice is delivered (a sub-agent's cost). */
  events?: AgentEvent[];
  /** The model stopped the task itself and knows: front ends hear of it, the conversation does not. */
  silent?: boolean;
}

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

/** How far a background agent is: sent each time it runs a tool (front ends only, never the model). */
export interface TaskProgress {
  taskId: string;
  toolUseId?: string;
  description: string;
  usage: { totalTokens: number; toolUses: number; durationMs: number };
  lastToolName?: string;
  subagentType?: string;
}

/** What a tool gets (ToolContext.backgroundTasks) to report the background work it starts. */
export interface TaskTracker {
  started(task: StartedTask): void;
  ended(notice: TaskNotice): void;
  progress?(p: TaskProgress): void;
}
