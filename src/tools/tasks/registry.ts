/**
 * Background tasks: commands started with `run_in_background` and sub-agents started the same way,
 * their output files and status. TaskOutput reads what is new since the last read (an agent's
 * report once it is done); TaskStop kills a command's whole process group, or aborts an agent.
 *
 * Every background task dies with wicket: `killAllBackgroundTasks()` runs on process exit and on
 * SIGTERM/SIGHUP (and SIGINT when nothing else handles it), and each task's shell also holds a
 * lifeline pipe whose closing kills its group, so even a SIGKILLed wicket leaves nothing behind.
 */
import { randomHex } from '../../base/ids.js';
import { stat, writeFile } from '../../base/fs/lazy-fs.js';
import { cleanForModel, readRange, takeMarker } from '../bash/output.js';
import { launchShell, type ShellProcess } from '../bash/spawn.js';

export type TaskStatus = 'running' | 'completed' | 'failed' | 'killed';

/** Who stopped a task: the model (TaskStop), the person (/tasks stop), a run that waited past its deadline, or wicket ending. */
export type StoppedBy = 'model' | 'person' | 'deadline' | 'exit';

interface TaskCommon {
  id: string;
  description?: string;
  outputFile: string;
  startedAt: number;
  status: TaskStatus;
  stoppedBy?: StoppedBy;
  /** Bytes of the output file already handed to the model. */
  readOffset: number;
  /** Resolves once the task has ended and its output file is final. */
  settled: Promise<void>;
}

export interface BashTask extends TaskCommon {
  kind: 'bash';
  command: string;
  pid: number;
  exitCode: number | null;
  /** The shell has exited (its output file may still be being finalised: await `settled`). */
  exited: boolean;
  proc: ShellProcess;
}

export interface AgentTask extends TaskCommon {
  kind: 'agent';
  description: string;
  agentType: string;
  /** Aborts the agent's run (its own controller: the turn's Esc does not reach it). */
  abort: () => void;
  /** Its final report (or what it got to), once it has ended. */
  report?: string;
}

export type BackgroundTask = BashTask | AgentTask;

/** What a task is, in a few words: its description, or its command. */
export function taskLabel(task: BackgroundTask): string {
  return task.kind === 'agent' ? `${task.agentType}: ${task.description}` : (task.description ?? task.command);
}

export interface StartTaskOptions {
  command: string;
  cwd: string;
  env: Record<string, string | undefined>;
  outputFile: string;
  description?: string;
  prefix?: string[];
  preamble?: string;
}

const tasks = new Map<string, BackgroundTask>();
const MAX_READ_BYTES = 256 * 1024;
const MAX_READ_CHARS = 30_000;

export function startBackgroundTask(opts: StartTaskOptions): BashTask {
  const proc = launchShell({
    command: opts.command,
    cwd: opts.cwd,
    env: opts.env,
    outputPath: opts.outputFile,
    ...(opts.prefix ? { prefix: opts.prefix } : {}),
    ...(opts.preamble ? { preamble: opts.preamble } : {}),
  });
  return adoptBackgroundTask(proc, { command: opts.command, outputFile: opts.outputFile, ...(opts.description ? { description: opts.description } : {}) });
}

/** A command already running (a foreground one sent to the background with Ctrl+B) becomes a background task. */
export function adoptBackgroundTask(proc: ShellProcess, opts: { command: string; outputFile: string; description?: string; startedAt?: number }): BashTask {
  installExitHandlers();
  const task: BashTask = {
    kind: 'bash',
    id: `b${randomHex(4)}`,
    command: opts.command,
    ...(opts.description ? { description: opts.description } : {}),
    outputFile: opts.outputFile,
    pid: proc.pid,
    startedAt: opts.startedAt ?? Date.now(),
    status: 'running',
    exitCode: null,
    readOffset: 0,
    exited: false,
    proc,
    settled: Promise.resolve(),
  };
  task.settled = proc.exited.then(async ({ exitCode }) => {
    task.exited = true;
    proc.release();
    await takeMarker(task.outputFile, proc.marker).catch(() => undefined);
    task.exitCode = exitCode;
    if (task.status === 'running') task.status = exitCode === 0 ? 'completed' : 'failed';
  });
  tasks.set(task.id, task);
  return task;
}

export interface AgentTaskOptions {
  description: string;
  agentType: string;
  outputFile: string;
  abort: () => void;
  /** The agent's run: its report, and whether it failed. */
  run: Promise<{ report: string; failed: boolean }>;
}

/** Registers a sub-agent running in the background; its report goes to its output file when it ends. */
export function registerAgentTask(opts: AgentTaskOptions): AgentTask {
  installExitHandlers();
  const task: AgentTask = {
    kind: 'agent',
    id: `a${randomHex(4)}`,
    description: opts.description,
    agentType: opts.agentType,
    outputFile: opts.outputFile,
    startedAt: Date.now(),
    status: 'running',
    readOffset: 0,
    abort: opts.abort,
    settled: Promise.resolve(),
  };
  task.settled = opts.run
    .catch((err: unknown) => ({ report: `The agent failed: ${err instanceof Error ? err.message : String(err)}`, failed: true }))
    .then(async ({ report, failed }) => {
      task.report = report;
      await writeFile(task.outputFile, `${report}\n`).catch(() => undefined);
      if (task.status === 'running') task.status = failed ? 'failed' : 'completed';
    });
  tasks.set(task.id, task);
  return task;
}

export function getBackgroundTask(id: string): BackgroundTask | undefined {
  return tasks.get(id);
}

export function listBackgroundTasks(): BackgroundTask[] {
  return [...tasks.values()];
}

/** Kill a task's process group (SIGTERM, then SIGKILL), or abort an agent, and wait until it has ended. */
export async function stopBackgroundTask(id: string, graceMs = 2000, by: StoppedBy = 'model'): Promise<BackgroundTask | undefined> {
  const task = tasks.get(id);
  if (!task) return undefined;
  if (task.status === 'running') {
    task.status = 'killed';
    task.stoppedBy = by;
    if (task.kind === 'bash') await task.proc.kill(graceMs);
    else task.abort();
  }
  await task.settled;
  return task;
}

/** SIGKILL every background command's process group and abort every agent, synchronously. Safe to call more than once. */
export function killAllBackgroundTasks(): void {
  for (const task of tasks.values()) {
    if (task.status !== 'running') continue;
    task.status = 'killed';
    task.stoppedBy = 'exit';
    if (task.kind === 'bash') task.proc.killNow();
    else task.abort();
  }
}

export interface TaskRead {
  text: string;
  /** New bytes not shown because there were too many (they stay in the file). */
  skippedBytes: number;
}

/** New output since the last read, cleaned for the model; advances the read offset. */
export async function readNewOutput(task: BashTask): Promise<TaskRead> {
  if (task.status !== 'running' || task.exited) await task.settled;
  const size = (await stat(task.outputFile).catch(() => ({ size: 0 }))).size;
  let start = task.readOffset;
  let skippedBytes = 0;
  if (size - start > MAX_READ_BYTES) {
    skippedBytes = size - MAX_READ_BYTES - start;
    start = size - MAX_READ_BYTES;
  }
  let raw = await readRange(task.outputFile, start, size - start);
  let end = size;
  if (task.status === 'running') {
    // Hand over whole lines only while the task still writes (a line may be half written).
    const cut = raw.lastIndexOf('\n');
    if (cut >= 0) {
      end = start + Buffer.byteLength(raw.slice(0, cut + 1));
      raw = raw.slice(0, cut + 1);
    }
  }
  task.readOffset = end;
  let text = cleanForModel(raw).trimEnd();
  if (text.length > MAX_READ_CHARS) {
    skippedBytes += Buffer.byteLength(text.slice(0, text.length - MAX_READ_CHARS));
    text = text.slice(-MAX_READ_CHARS);
  }
  return { text, skippedBytes };
}

let handlersInstalled = false;

function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killAllBackgroundTasks);
  for (const sig of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    const handler = (): void => {
      const alone = process.listenerCount(sig) === 1;
      if (sig === 'SIGINT' && !alone) return; // someone else decides what Ctrl-C means
      killAllBackgroundTasks();
      if (alone) {
        process.removeListener(sig, handler);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, handler);
  }
}

/** For tests: forget finished tasks. */
export function forgetFinishedTasks(): void {
  for (const [id, t] of tasks) if (t.status !== 'running') tasks.delete(id);
}
