/**
 * Runs ripgrep and streams its output line by line. Nothing is buffered beyond the line being read:
 * the caller sees each line once and may stop at any time, which kills rg at once. The abort signal
 * and the time limit kill rg too, so a search over a huge tree can never outlive its call or hold
 * its output in memory.
 *
 * Contract:
 * - resolves when rg has exited and its pipes are closed (no process is left behind);
 * - rejects with ToolError('aborted') when the signal fires, ToolError('execution_failed') when rg
 *   cannot be started, or with whatever `onLine` threw;
 * - a time-out is not an error here: `timedOut` is set and the caller decides what partial output
 *   is worth.
 */
import { ToolError } from '../errors.js';
import { requireModule } from '../lib/import-module.js';
import { LineSplitter } from './line-splitter.js';

export interface RunRgOptions {
  args: readonly string[];
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Environment for rg; undefined values are dropped. Defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Line delimiter: `\n`, or `\0` with rg's `--null` for `--files` and `-l` lists. */
  delimiter?: '\n' | '\0';
  /** Longest line kept, in bytes; longer lines are cut (`cut` is true). */
  maxLineBytes?: number;
  /** Called for every line. Return false to stop: rg is killed and the run resolves. */
  onLine: (line: string, cut: boolean) => boolean | void;
  /** The executable; tests inject a stand-in. Defaults to the binary from @vscode/ripgrep. */
  command?: string;
}

export interface RgRunResult {
  /** rg's exit code (0 found, 1 nothing found, 2 error); null when it was killed. */
  exitCode: number | null;
  /** The start of rg's stderr (at most MAX_STDERR_CHARS). */
  stderr: string;
  /** onLine asked to stop, and rg was killed. */
  stopped: boolean;
  timedOut: boolean;
  /** Lines handed to onLine. */
  lines: number;
}

const MAX_STDERR_CHARS = 4000;

export function runRg(opts: RunRgOptions): Promise<RgRunResult> {
  if (opts.signal.aborted) return Promise.reject(abortError());
  const rgPath = opts.command ?? requireModule<typeof import('@vscode/ripgrep')>('@vscode/ripgrep').rgPath;
  return new Promise<RgRunResult>((resolve, reject) => {
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(rgPath, opts.args, {
      cwd: opts.cwd,
      env: cleanEnv(opts.env ?? process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const splitter = new LineSplitter({ delimiter: opts.delimiter, maxLineBytes: opts.maxLineBytes });
    const state = { stopped: false, timedOut: false, lines: 0, stderr: '', failure: undefined as unknown };

    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const emit = (line: string, cut: boolean): boolean => {
      if (state.stopped || state.failure !== undefined) return false;
      state.lines++;
      try {
        if (opts.onLine(line, cut) !== false) return true;
        state.stopped = true;
      } catch (err) {
        state.failure = err;
      }
      kill();
      return false;
    };
    const onAbort = () => {
      state.failure ??= abortError();
      kill();
    };
    const timer = setTimeout(() => {
      state.timedOut = true;
      kill();
    }, opts.timeoutMs);
    opts.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (!state.stopped && state.failure === undefined) splitter.push(chunk, emit);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (state.stderr.length < MAX_STDERR_CHARS) state.stderr = (state.stderr + chunk.toString('utf8')).slice(0, MAX_STDERR_CHARS);
    });
    child.on('error', (err) => {
      state.failure ??= new ToolError('execution_failed', `Could not run ripgrep (${rgPath}): ${err.message}`);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      if (!state.stopped && state.failure === undefined && !state.timedOut) splitter.flush(emit);
      if (state.failure !== undefined) return reject(state.failure);
      resolve({
        exitCode: state.stopped || state.timedOut ? null : code,
        stderr: state.stderr.trim(),
        stopped: state.stopped,
        timedOut: state.timedOut,
        lines: state.lines,
      });
    });
  });
}

function abortError(): ToolError {
  return new ToolError('aborted', 'The search was aborted.');
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
