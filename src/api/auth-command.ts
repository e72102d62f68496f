/**
 * The credential commands of the settings (`apiKeyHelper`, `awsAuthRefresh`, `awsCredentialExport`,
 * `gcpAuthRefresh`), run as Claude Code runs them: by `/bin/sh` in the project folder, with the
 * session's environment, under a time limit. The command runs in its own process group, so that a
 * time limit or an abort stops it and whatever it started. Every failure is a FatalError that
 * names the setting and says what went wrong: a person must fix the command, retrying would not.
 */
import { FatalError } from '../base/errors.js';
import { execaLib } from '../base/lib/execa-lib.js';
import { killGroupOnDeadline } from '../base/process-group.js';
import { duration } from './limits.js';

export interface AuthCommandOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Each line the command prints, as it prints it (awsAuthRefresh's output is shown to the person). */
  onOutput?: (line: string) => void;
}

/** Output kept of a failing command, for its error message. */
const TAIL = 400;

/** Runs `command` (the value of `setting`) and resolves with what it printed on stdout, trimmed. */
export async function runAuthCommand(setting: string, command: string, opts: AuthCommandOptions): Promise<string> {
  const { execa } = await execaLib();
  const env = Object.fromEntries(Object.entries(opts.env).filter((e): e is [string, string] => e[1] !== undefined));
  let subprocess: ReturnType<typeof execa>;
  try {
    subprocess = execa(command, {
      shell: '/bin/sh',
      cwd: opts.cwd,
      env,
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      detached: true,
      maxBuffer: 1024 * 1024,
    });
  } catch (err) {
    throw new FatalError('auth', `${setting} could not be started: ${(err as Error).message}`);
  }
  if (opts.onOutput) relayLines(subprocess, opts.onOutput);
  const deadline = killGroupOnDeadline(subprocess, opts.timeoutMs, opts.signal);
  const result = await subprocess;
  deadline.release();
  if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('aborted');
  const stdout = String(result.stdout ?? '').trim();
  if (deadline.timedOut) throw new FatalError('auth', `${setting} did not finish within ${duration(opts.timeoutMs)}: the command "${command}" was stopped`);
  if (result.exitCode !== 0) {
    const why = typeof result.exitCode === 'number' ? `exit code ${result.exitCode}` : (result.shortMessage ?? 'it did not run');
    // Only stderr: what a credential command prints on stdout may be the secret itself.
    const said = tail(String(result.stderr ?? '').trim());
    throw new FatalError('auth', `${setting} failed (${why})${said ? `: ${said}` : ''}`);
  }
  return stdout;
}

/** Hands each complete line of the command's stdout and stderr to `onOutput` as it arrives. */
function relayLines(subprocess: { stdout?: NodeJS.ReadableStream | null; stderr?: NodeJS.ReadableStream | null }, onOutput: (line: string) => void): void {
  for (const stream of [subprocess.stdout, subprocess.stderr]) {
    let pending = '';
    stream?.on('data', (chunk: Buffer | string) => {
      const lines = (pending + String(chunk)).split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) onOutput(line);
    });
    stream?.on('end', () => {
      if (pending.trim()) onOutput(pending);
      pending = '';
    });
  }
}

function tail(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > TAIL ? `…${flat.slice(-TAIL)}` : flat;
}
