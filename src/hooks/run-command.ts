/**
 * Runs one `type: "command"` hook: the JSON input on stdin, the project folder in
 * CLAUDE_PROJECT_DIR, a time limit. The hook runs in its own process group so that a timeout or an
 * abort stops the script and everything it started (a `sleep` inside a bash script included).
 * Never throws: every outcome — exit code, timeout, abort, failure to start — is data.
 */
import { existsSync } from 'node:fs';
import type { CommandHook } from '../base/hook-config.js';
import { execaLib } from '../base/lib/execa-lib.js';
import { killGroupOnDeadline } from '../base/process-group.js';

export interface HookRunOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface HookRunResult {
  /** Undefined when the process did not exit normally (killed, or never started). */
  exitCode?: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** Set when the command could not be started at all. */
  spawnError?: string;
  durationMs: number;
}

/**
 * For handlers that are not processes (http, prompt): the signal that ends at the time limit or the
 * session's abort, and the result with its duration and why it ended.
 */
export function limitedRun(opts: HookRunOptions): {
  signal: AbortSignal;
  done: (r: Omit<HookRunResult, 'durationMs' | 'timedOut' | 'aborted'>) => HookRunResult;
} {
  const started = Date.now();
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const done = (r: Omit<HookRunResult, 'durationMs' | 'timedOut' | 'aborted'>): HookRunResult => ({
    ...r,
    timedOut: timeout.aborted,
    aborted: opts.signal?.aborted === true,
    durationMs: Date.now() - started,
  });
  return { signal, done };
}

/** Hook output beyond this is cut (only the first 10,000 characters ever reach the model). */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

let shellPath: string | undefined;
function defaultShell(): string {
  shellPath ??= ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? '/bin/sh';
  return shellPath;
}

/**
 * The shell's program and arguments for a command hook. bash started with `-c` and a socket on
 * stdin (Node's pipes are sockets) takes itself for a command run by rshd or sshd and reads
 * ~/.bashrc, unless SHLVL says it is nested: every hook would wait for what the rc does (`pyenv
 * init`: 100 ms and more). `--norc` stops that; stdin stays the socket the hook always had.
 */
function shellArgv(hook: CommandHook): [string, string[]] {
  const shell = hook.shell === 'bash' || !hook.shell ? defaultShell() : hook.shell;
  const bash = shell === 'bash' || shell.endsWith('/bash');
  return [shell, [...(bash ? ['--norc'] : []), '-c', hook.command]];
}

/** `${CLAUDE_PROJECT_DIR}` and `$CLAUDE_PROJECT_DIR` in exec-form commands and arguments (no shell expands them). */
function substitute(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, env.CLAUDE_PROJECT_DIR ?? '');
}

export async function runHookCommand(hook: CommandHook, stdin: string, opts: HookRunOptions): Promise<HookRunResult> {
  const { execa } = await execaLib(); // loaded on first use, not at start-up
  const started = Date.now();
  const common = {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    input: stdin,
    reject: false,
    detached: true,
    maxBuffer: MAX_OUTPUT_BYTES,
    stripFinalNewline: false,
    ...(opts.signal ? { cancelSignal: opts.signal } : {}),
  } as const;
  let subprocess;
  try {
    const [file, args] = hook.args ? [substitute(hook.command, opts.env), hook.args.map((a) => substitute(a, opts.env))] : shellArgv(hook);
    subprocess = execa(file, args, common);
  } catch (err) {
    return { stdout: '', stderr: '', timedOut: false, aborted: false, spawnError: (err as Error).message, durationMs: Date.now() - started };
  }
  const deadline = killGroupOnDeadline(subprocess, opts.timeoutMs, opts.signal);
  const result = await subprocess;
  deadline.release();
  const timedOut = deadline.timedOut;
  const out: HookRunResult = {
    stdout: toText(result.stdout),
    stderr: toText(result.stderr),
    timedOut,
    aborted: !timedOut && (opts.signal?.aborted ?? false),
    durationMs: Date.now() - started,
  };
  if (typeof result.exitCode === 'number') out.exitCode = result.exitCode;
  else if (!timedOut && !out.aborted && result.failed && result.signal === undefined) out.spawnError = result.shortMessage ?? result.message;
  return out;
}

function toText(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
