/**
 * Background work that tells the model when it is done. A tool that starts a background task (a
 * Bash command, a sub-agent) reports it through the `TaskTracker` the loop hands it; when the task
 * ends, its notice waits here until the loop's next request carries it to the model as a
 * `<task-notification>`. Print mode (and a sub-agent) waits here for tasks still running before it
 * ends; the app subscribes and wakes the model when a notice arrives while it is idle.
 * One queue per conversation; never a global.
 */
import type { AgentEvent, TaskNotice, TaskProgress } from '../base/events.js';
import type { StartedTask, TaskTracker } from '../base/tasks.js';

/** Progress events kept for the loop at most; older ones go first. */
const MAX_PROGRESS = 100;

export class TaskNotices implements TaskTracker {
  private readonly pending: TaskNotice[] = [];
  private readonly running = new Map<string, StartedTask>();
  private readonly listeners = new Set<() => void>();
  private readonly progressed: TaskProgress[] = [];
  private readonly progressListeners = new Set<() => void>();

  started(task: StartedTask): void {
    this.running.set(task.taskId, { ...task });
  }

  ended(notice: TaskNotice): void {
    this.running.delete(notice.taskId);
    this.pending.push(notice);
    for (const fn of [...this.listeners]) fn();
  }

  /** A running task's progress, kept for the loop's next event (a task already ended has none). */
  progress(p: TaskProgress): void {
    if (!this.running.has(p.taskId)) return;
    if (this.progressed.push(p) > MAX_PROGRESS) this.progressed.shift(); // nobody took them: the newest matter

    for (const fn of [...this.progressListeners]) fn();
  }

  /** Progress since the last call, oldest first. */
  takeProgress(): TaskProgress[] {
    return this.progressed.splice(0);
  }

  /** The notices waiting for delivery, oldest first; the queue is left empty. */
  take(): TaskNotice[] {
    return this.pending.splice(0);
  }

  /** Whether a notice for the model is waiting (one it need not read does not count). */
  hasPending(): boolean {
    return this.pending.some((n) => !n.silent);
  }

  /** Tasks started and not yet ended. */
  runningTasks(): StartedTask[] {
    return [...this.running.values()];
  }

  /** Called after each notice is queued; returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  /**
   * Resolves once a notice is waiting, nothing is running, or the signal aborts. A task whose
   * deadline passes meanwhile is stopped (once), so a hung task never holds the run for ever.
   */
  async waitForNotice(signal: AbortSignal, orProgress = false): Promise<void> {
    while (!this.pending.length && !(orProgress && this.progressed.length) && this.running.size && !signal.aborted) {
      const now = Date.now();
      for (const t of this.running.values()) {
        if (t.deadline === undefined || t.deadline > now) continue;
        t.deadline = undefined;
        t.stop?.();
      }
      const deadlines = [...this.running.values()].flatMap((t) => (t.deadline === undefined ? [] : [t.deadline]));
      await this.nextChange(signal, deadlines.length ? Math.max(0, Math.min(...deadlines) - Date.now()) : undefined, orProgress);
    }
  }

  private nextChange(signal: AbortSignal, ms: number | undefined, orProgress: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        if (timer) clearTimeout(timer);
        unsubscribe();
        offProgress();
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      const unsubscribe = this.subscribe(done);
      if (orProgress) this.progressListeners.add(done);
      const offProgress = () => void this.progressListeners.delete(done);
      signal.addEventListener('abort', done, { once: true });
      if (signal.aborted) done();
    });
  }
}

/** The queue as a tool sees it: a start is also told to front ends (a `task_started` event). */
export function trackerFor(notices: TaskTracker, emit: (e: AgentEvent) => void): TaskTracker {
  return {
    started(task) {
      notices.started(task);
      emit({
        type: 'task_started',
        taskId: task.taskId,
        ...(task.toolUseId ? { toolUseId: task.toolUseId } : {}),
        taskType: task.taskType,
        description: task.description,
      });
    },
    ended: (notice) => notices.ended(notice),
    progress: (p) => notices.progress?.(p),
  };
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The text the model receives for a notice (Claude Code's `<task-notification>` block). */
export function noticeText(n: TaskNotice): string {
  const lines = ['<task-notification>', `<task-id>${n.taskId}</task-id>`];
  if (n.toolUseId) lines.push(`<tool-use-id>${n.toolUseId}</tool-use-id>`);
  lines.push(
    `<task-type>${n.taskType}</task-type>`,
    `<output-file>${n.outputFile}</output-file>`,
    `<status>${n.status}</status>`,
    `<summary>${escapeXml(n.summary)}</summary>`,
  );
  if (n.result !== undefined) lines.push(`<result>${n.result}</result>`);
  if (n.usage) lines.push(`<usage>total_tokens: ${n.usage.totalTokens}\ntool_uses: ${n.usage.toolUses}\nduration_ms: ${n.usage.durationMs}</usage>`);
  lines.push('</task-notification>');
  lines.push(n.taskType === 'local_agent' ? `The agent's report is also in ${n.outputFile}` : `Read the output file to retrieve the result: ${n.outputFile}`);
  return lines.join('\n');
}
