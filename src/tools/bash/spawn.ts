/**
 * Starts `bash -c` in a process group of its own, with stdout and stderr both written to one file
 * descriptor (so they interleave exactly as produced, and no output is held in memory).
 *
 * The script gets a short preamble:
 * - a lifeline: a disowned watcher reads a pipe from wicket and kills the whole group when the pipe
 *   closes, so the commands die with wicket however wicket ends (SIGKILL included);
 * - an EXIT trap printing a random marker and `pwd -P`, from which the next working directory is read.
 */
import { closeSync, openSync } from 'node:fs';
import type { execa as Execa } from 'execa';
import { execaLib } from '../../base/lib/execa-lib.js';
import { randomHex } from '../../base/ids.js';
import { killProcessGroup } from '../../base/process-group.js';

export interface LaunchOptions {
  command: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** File receiving stdout and stderr (created or truncated). */
  outputPath: string;
  /** Program and arguments placed before `bash -c script` (the sandbox). */
  prefix?: string[];
  /** Extra shell text run before the command (sandbox network bridge). */
  preamble?: string;
  signal?: AbortSignal;
}

export interface ShellProcess {
  pid: number;
  /** The marker printed before the final working directory. */
  marker: string;
  exited: Promise<{ exitCode: number | null; signal: string | null }>;
  /** SIGTERM to the group, then SIGKILL after `graceMs` (also when the leader exits first). */
  kill(graceMs?: number): Promise<void>;
  /** SIGKILL to the group, synchronously (exit handlers). */
  killNow(): void;
  /** Close the lifeline: the watcher then kills whatever is left in the group. */
  release(): void;
}

/**
 * fd 3 is the lifeline (not stdin: bash reads ~/.bashrc when its stdin is a socket). It stays open
 * on fd 9 during the preamble, which may use `read -t … -u 9` as a sleep without starting a process.
 */
const LIFELINE_OPEN = 'exec 9<&3 3<&-; { while read -r -u 9 _; do :; done; kill -KILL 0; } 2>/dev/null & disown; ';
const LIFELINE_CLOSE = 'exec 9<&-; ';

export function cwdTrap(marker: string): string {
  return `trap 'printf "\\n%s" "${marker}"; pwd -P' EXIT; `;
}

export function launchShell(opts: LaunchOptions): ShellProcess {
  const marker = `__wicket_cwd_${randomHex(8)}__`;
  const script = `${LIFELINE_OPEN}${opts.preamble ?? ''}${LIFELINE_CLOSE}${cwdTrap(marker)}${opts.command}`;
  const fd = openSync(opts.outputPath, 'w');
  let child;
  try {
    child = start([...(opts.prefix ?? []), 'bash', '-c', script], fd, opts);
  } finally {
    closeSync(fd);
  }
  const pid = child.pid ?? -1;
  const lifeline = child.stdio[3];
  lifeline?.on('error', () => {});
  // Not the execa promise: it also waits for the lifeline pipe, which stays open until release().
  const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (exitCode, signal) => resolve({ exitCode, signal }));
    child.once('error', () => resolve({ exitCode: null, signal: null }));
  });
  child.catch(() => undefined);
  let done = false;
  void exited.then(() => (done = true));
  const killGroup = (sig: NodeJS.Signals): void => killProcessGroup(pid, sig);
  return {
    pid,
    marker,
    exited,
    async kill(graceMs = 2000) {
      killGroup('SIGTERM');
      if (!done) await Promise.race([exited, delay(graceMs)]);
      killGroup('SIGKILL');
      lifeline?.destroy();
      await exited;
    },
    killNow() {
      killGroup('SIGKILL');
      lifeline?.destroy();
    },
    release() {
      lifeline?.destroy();
      killGroup('SIGKILL');
    },
  };
}

let execa: typeof Execa | undefined;

/** The process runner loads on first use, not at start-up: await this before launchShell. */
export async function loadShellRunner(): Promise<void> {
  execa ??= (await execaLib()).execa;
}

function start(argv: string[], descriptor: number, opts: LaunchOptions) {
  if (!execa) throw new Error('the shell runner is not loaded yet (await loadShellRunner() first)');
  const [file, ...args] = argv;
  // execa's types accept a file descriptor only as a numeric literal type.
  const fd = descriptor as 3;
  return execa(file!, args, {
    cwd: opts.cwd,
    env: cleanEnv(opts.env),
    extendEnv: false,
    detached: true,
    cleanup: false,
    reject: false,
    buffer: false,
    stdio: ['ignore', fd, fd, 'pipe'],
    cancelSignal: opts.signal,
  });
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out.WICKET = '1';
  return out;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
