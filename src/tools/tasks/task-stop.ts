/** TaskStop (alias KillShell): stop a background task and every process it started. */
import type { z } from 'zod';
import { defineTool, lazySchema } from '../../base/tool.js';
import { getBackgroundTask, stopBackgroundTask, taskLabel, type TaskStatus } from './registry.js';
import { taskIdOf, unknownTaskMessage } from './task-output.js';

export const taskStopSchema = lazySchema((z) =>
  z.strictObject({
    task_id: z.string().optional().describe('The id of the background task to stop'),
    shell_id: z.string().optional().describe('Deprecated: use task_id'),
  }),
);

export type TaskStopInput = z.infer<typeof taskStopSchema>;

export interface TaskStopResult {
  taskId: string;
  /** The command, or the agent's type and description. */
  label: string;
  /** False when the task had already ended. */
  stopped: boolean;
  status: TaskStatus;
  exitCode: number | null;
}

export const taskStopTool = defineTool<TaskStopInput, TaskStopResult>({
  name: 'TaskStop',
  aliases: ['KillShell', 'KillBash'],
  description: () =>
    'Stops a background task: a Bash command started with run_in_background (its whole process group is sent SIGTERM, then SIGKILL), ' +
    'or a background agent (its work is interrupted).',
  inputSchema: taskStopSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,

  async validateInput(input) {
    const id = taskIdOf(input);
    if (id === undefined || !getBackgroundTask(id)) return { ok: false, message: unknownTaskMessage(id) };
    return { ok: true };
  },

  async checkPermissions() {
    return { behavior: 'allow', reason: 'stops a task this session started' };
  },

  async *call(input) {
    const id = taskIdOf(input) ?? '';
    const before = getBackgroundTask(id);
    if (!before) throw new Error(unknownTaskMessage(id));
    const wasRunning = before.status === 'running';
    const task = (await stopBackgroundTask(id))!;
    return { taskId: task.id, label: taskLabel(task), stopped: wasRunning, status: task.status, exitCode: task.kind === 'bash' ? task.exitCode : null };
  },

  toModelResult(out) {
    if (!out.stopped) return { content: `Task ${out.taskId} had already ended (${out.status}, exit code ${out.exitCode ?? 'none'}).` };
    return { content: `Stopped task ${out.taskId} (${out.label.slice(0, 200)}).` };
  },

  summary: (input) => `stop background task ${taskIdOf(input) ?? '?'}`,
  display: (out) => ({ summary: out.stopped ? `stopped ${out.taskId}` : `${out.taskId} had already ended` }),
});
