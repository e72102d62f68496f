/** TaskOutput (alias BashOutput): a background task's new output (an agent's report) and its status. */
import type { z } from 'zod';
import { delay } from '../bash/spawn.js';
import { defineTool, lazySchema } from '../../base/tool.js';
import { getBackgroundTask, listBackgroundTasks, readNewOutput, taskLabel, type BackgroundTask, type TaskStatus } from './registry.js';

export const taskOutputSchema = lazySchema((z) =>
  z.strictObject({
    task_id: z.string().optional().describe('The id of the background task (as returned by Bash or Agent with run_in_background)'),
    shell_id: z.string().optional().describe('Deprecated: use task_id'),
    bash_id: z.string().optional().describe('Deprecated: use task_id'),
    block: z.boolean().optional().describe('Wait for the task to finish before returning (default true)'),
    timeout: z.number().optional().describe('How long to wait when blocking, in milliseconds (default 30000, max 600000)'),
  }),
);

export type TaskOutputInput = z.infer<typeof taskOutputSchema>;

export interface TaskOutputResult {
  taskId: string;
  kind: BackgroundTask['kind'];
  /** The command, or the agent's type and description. */
  label: string;
  status: TaskStatus;
  exitCode: number | null;
  output: string;
  skippedBytes: number;
  outputFile: string;
  /** True when `block` waited the whole timeout and the task is still running. */
  waitTimedOut: boolean;
}

const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;

export function taskIdOf(input: { task_id?: string | undefined; shell_id?: string | undefined; bash_id?: string | undefined }): string | undefined {
  return input.task_id ?? input.shell_id ?? input.bash_id;
}

export function unknownTaskMessage(id: string | undefined): string {
  const running = listBackgroundTasks()
    .filter((t) => t.status === 'running')
    .map((t) => `${t.id} (${taskLabel(t).slice(0, 60)})`);
  const known = running.length ? `Running tasks: ${running.join(', ')}` : 'No background task is running.';
  return id === undefined ? `task_id is required. ${known}` : `No background task with id "${id}". ${known}`;
}

export const taskOutputTool = defineTool<TaskOutputInput, TaskOutputResult>({
  name: 'TaskOutput',
  aliases: ['BashOutput'],
  description: () =>
    'Reads the output a background task (a Bash command started with run_in_background) produced since the last read, ' +
    'with its status and exit code; for a background agent (Agent with run_in_background), its report once it is done. ' +
    'With block (the default) it waits up to timeout ms for the task to finish. You are told when a background task ends, ' +
    "so there is no need to poll. The full output is also in the task's output file, which Read and Grep can open.",
  inputSchema: taskOutputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,

  async validateInput(input) {
    const id = taskIdOf(input);
    if (id === undefined || !getBackgroundTask(id)) return { ok: false, message: unknownTaskMessage(id) };
    const t = input.timeout;
    if (t !== undefined && (!Number.isFinite(t) || t < 0 || t > MAX_WAIT_MS)) {
      return { ok: false, message: `timeout must be between 0 and ${MAX_WAIT_MS} ms (got ${t})` };
    }
    return { ok: true };
  },

  async checkPermissions() {
    return { behavior: 'allow', reason: 'reads a background task' };
  },

  async *call(input, ctx) {
    const task = getBackgroundTask(taskIdOf(input) ?? '');
    if (!task) throw new Error(unknownTaskMessage(taskIdOf(input)));
    let waitTimedOut = false;
    if (input.block !== false && task.status === 'running') {
      waitTimedOut = !(await waitFor(task, input.timeout ?? DEFAULT_WAIT_MS, ctx.signal));
    }
    const common = { taskId: task.id, kind: task.kind, label: taskLabel(task), outputFile: task.outputFile, waitTimedOut };
    if (task.kind === 'agent') {
      if (task.status !== 'running') await task.settled;
      return { ...common, status: task.status, exitCode: null, output: task.status === 'running' ? '' : (task.report ?? ''), skippedBytes: 0 };
    }
    const read = await readNewOutput(task);
    return { ...common, status: task.status, exitCode: task.exitCode, output: read.text, skippedBytes: read.skippedBytes };
  },

  toModelResult(out) {
    const lines = [
      `<task_id>${out.taskId}</task_id>`,
      `<task_type>${out.kind === 'agent' ? 'local_agent' : 'local_bash'}</task_type>`,
      `<status>${out.status}</status>`,
    ];
    if (out.exitCode !== null) lines.push(`<exit_code>${out.exitCode}</exit_code>`);
    if (out.kind === 'agent' && out.status === 'running') {
      lines.push(
        `<note>the agent is still working${out.waitTimedOut ? ' after the wait' : ''}; you are told when it finishes (or call TaskOutput again later)</note>`,
      );
      return { content: lines.join('\n') };
    }
    if (out.waitTimedOut) lines.push('<note>still running after the wait; call TaskOutput again later</note>');
    if (out.skippedBytes) lines.push(`<note>${out.skippedBytes} bytes of earlier output skipped; the whole output is in ${out.outputFile}</note>`);
    lines.push(out.output ? `<output>\n${out.output}\n</output>` : '<output>(no new output)</output>');
    return { content: lines.join('\n') };
  },

  summary: (input) => `read background task ${taskIdOf(input) ?? '?'}`,
  display: (out) => ({ summary: `${out.taskId}: ${out.status}`, preview: out.output.slice(-2000) }),
});

/** Wait until the task ends, the time is up or the call is aborted. True when it ended. */
async function waitFor(task: BackgroundTask, ms: number, signal: AbortSignal): Promise<boolean> {
  let aborted = false;
  const onAbort = (): void => void (aborted = true);
  signal.addEventListener('abort', onAbort, { once: true });
  const deadline = Date.now() + ms;
  try {
    while (task.status === 'running' && !aborted && Date.now() < deadline) {
      await Promise.race([task.settled, delay(Math.min(100, Math.max(1, deadline - Date.now())))]);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (task.status !== 'running') await task.settled;
  return task.status !== 'running';
}
