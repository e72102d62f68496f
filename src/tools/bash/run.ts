/**
 * Running one Bash call in the foreground: start the shell, report progress from the tail of its
 * output file, stop the whole process group on timeout, abort or runaway output, then collect the
 * output in bounded memory and work out the next working directory.
 */
import { mkdirSync } from 'node:fs';
import { randomHex } from '../../base/ids.js';
import { stat } from '../../base/fs/lazy-fs.js';
import path from 'node:path';
import type { ToolProgress } from '../../base/tool.js';
import { nextCwd, startingCwd, type CwdContext } from './cwd.js';
import { collectOutput, outputTail } from './output.js';
import { whileInForeground } from './foreground.js';
import { delay, launchShell, type ShellProcess } from './spawn.js';

export interface RunOptions {
  command: string;
  timeoutMs: number;
  /** Characters of output the model reads (BASH_MAX_OUTPUT_LENGTH). */
  outputChars?: number;
  cwdContext: CwdContext;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  outputFile: string;
  prefix?: string[];
  preamble?: string;
  /** Stop the command once its output passes this many bytes. */
  maxOutputBytes?: number;
  /** How often progress is reported. */
  progressMs?: number;
}

/** The person sent the command to the background (Ctrl+B) while it ran: it goes on as a task. */
export interface Detached {
  detached: { proc: ShellProcess; startedAt: number; cwd: string; notes: string[] };
}

export interface RunResult {
  stdout: string;
  display: string;
  exitCode: number | null;
  signal?: string;
  interrupted: boolean;
  timedOut: boolean;
  outputTooLarge: boolean;
  outputFile?: string;
  totalBytes: number;
  /** Where the call ran. */
  cwd: string;
  /** Where the next call starts. */
  nextCwd: string;
  notes: string[];
  durationMs: number;
}

const POLL_MS = 200;
export const MAX_OUTPUT_BYTES = 4 * 1024 ** 3;

/** `<wicketHome>/sessions/<sessionId>/<kind>-<id>-<random>.log` (kind: bash, agent), directory created. */
export function outputFilePath(wicketHome: string, sessionId: string, id: string, kind = 'bash'): string {
  const dir = path.join(wicketHome, 'sessions', sessionId.replace(/[^\w.-]/g, '_') || 'default');
  mkdirSync(dir, { recursive: true });
  const safe = (id || randomHex(6)).replace(/[^\w.-]/g, '_');
  return path.join(dir, `${kind}-${safe}-${randomHex(3)}.log`);
}

export async function* runForeground(opts: RunOptions): AsyncGenerator<ToolProgress, RunResult | Detached, void> {
  const started = Date.now();
  const start = startingCwd(opts.cwdContext);
  const notes = start.note ? [start.note] : [];
  const proc = launchShell({
    command: opts.command,
    cwd: start.cwd,
    env: opts.env,
    outputPath: opts.outputFile,
    signal: opts.signal,
    ...(opts.prefix ? { prefix: opts.prefix } : {}),
    ...(opts.preamble ? { preamble: opts.preamble } : {}),
  });
  const state = { timedOut: false, interrupted: false, tooLarge: false, finished: false, detached: false };
  void proc.exited.then(() => (state.finished = true));
  let letGo = (): void => {};
  const detached = new Promise<void>((resolve) => (letGo = resolve));
  const stopWatching = whileInForeground(() => {
    state.detached = true;
    letGo();
  });
  const onAbort = (): void => {
    state.interrupted = true;
    void proc.kill(500);
  };
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    state.timedOut = true;
    void proc.kill(1000);
  }, opts.timeoutMs);
  try {
    yield* watch(opts, Promise.race([proc.exited, detached]), state, started);
  } finally {
    stopWatching();
    clearTimeout(timer);
    opts.signal.removeEventListener('abort', onAbort);
    if (!state.finished && !state.detached) await proc.kill(500);
  }
  if (state.detached && !state.finished) return { detached: { proc, startedAt: started, cwd: start.cwd, notes } };
  const exit = await proc.exited;
  proc.release();
  const out = await collectOutput(opts.outputFile, proc.marker, opts.outputChars ? { limit: opts.outputChars } : {});
  const next = nextCwd(out.cwd, start.cwd, opts.cwdContext);
  if (next.note) notes.push(next.note);
  return {
    stdout: out.text,
    display: out.display,
    exitCode: exit.exitCode,
    ...(exit.signal ? { signal: exit.signal } : {}),
    interrupted: state.interrupted,
    timedOut: state.timedOut,
    outputTooLarge: state.tooLarge,
    ...(out.outputFile ? { outputFile: out.outputFile } : {}),
    totalBytes: out.totalBytes,
    cwd: start.cwd,
    nextCwd: next.cwd,
    notes,
    durationMs: Date.now() - started,
  };
}

/** Poll the output file until the shell exits; yield the tail when it changed (throttled). */
async function* watch(
  opts: RunOptions,
  exited: Promise<unknown>,
  state: { finished: boolean; tooLarge: boolean; detached: boolean },
  started: number,
): AsyncGenerator<ToolProgress, void, void> {
  const every = opts.progressMs ?? 1000;
  const limit = opts.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  let lastSize = 0;
  let lastYield = started;
  while (!state.finished && !state.detached) {
    await Promise.race([exited, delay(POLL_MS)]);
    if (state.finished || state.detached) return;
    const size = (await stat(opts.outputFile).catch(() => ({ size: 0 }))).size;
    if (size > limit && !state.tooLarge) {
      state.tooLarge = true;
      yield { type: 'progress', message: `output passed ${limit} bytes; stopping the command` };
      return;
    }
    const now = Date.now();
    if (size !== lastSize && now - lastYield >= every) {
      lastSize = size;
      lastYield = now;
      yield { type: 'progress', message: await outputTail(opts.outputFile, size), data: { bytes: size, elapsedMs: now - started } };
    }
  }
}
