/**
 * Runs the BUILT binary (`bin/wicket.js` → `dist/`, so `npm run build` first) as a child process,
 * with a minimal clean environment: the program sees only PATH, a temporary HOME, a fake API key, the
 * fake server's URL, CI=true, WICKET_HOME=<home>/.wicket, NO_COLOR=1 and WICKET_LSP=0, plus `env` overrides
 * (an override set to `undefined` removes the variable, e.g. `{ ANTHROPIC_API_KEY: undefined }`).
 * Without `baseUrl`, ANTHROPIC_BASE_URL points at a closed local port, so a test can never reach the
 * real API.
 *
 *   const result = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, baseUrl: server.url });
 *   expectExit(result, 0);
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN_PATH = join(REPO_ROOT, 'bin', 'wicket.js');

/** Where ANTHROPIC_BASE_URL points when no fake server is given: nothing listens there. */
const UNREACHABLE_BASE_URL = 'http://127.0.0.1:9';

export interface RunCliOptions {
  cwd: string;
  /** The temporary HOME (see makeTmpProject). */
  home: string;
  /** Extra variables; `undefined` removes one from the clean environment. */
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, which is then closed (it is closed at once when absent). */
  stdin?: string | Buffer;
  /** A file opened as the child's stdin instead of a pipe (`wicket … < file`). */
  stdinFile?: string;
  /** Kill the child and reject after this long. Default 20 000 ms. */
  timeoutMs?: number;
  /** The fake server's `url`, passed as ANTHROPIC_BASE_URL. */
  baseUrl?: string;
  /** Run bin/wicket.js as a shell runs a command (through its `#!` line), not as `node bin/wicket.js`. */
  asCommand?: boolean;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON value (`--output-format json`); throws with stdout and stderr shown. */
  json<T = unknown>(): T;
  /** Each non-empty stdout line parsed as JSON (`--output-format stream-json`). */
  lines<T = unknown>(): T[];
}

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  /** Output so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout (or stderr with `{ stream: 'stderr' }`) matches; rejects on exit or timeout. */
  waitFor(pattern: string | RegExp, opts?: { stream?: 'stdout' | 'stderr'; timeoutMs?: number }): Promise<void>;
  /** Settles when the child exits (rejects on timeout, after killing it). */
  result: Promise<CliResult>;
}

export function cliEnv(opts: Pick<RunCliOptions, 'home' | 'env' | 'baseUrl'>): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    USERPROFILE: opts.home,
    XDG_CONFIG_HOME: join(opts.home, '.config'),
    XDG_CACHE_HOME: join(opts.home, '.cache'),
    XDG_DATA_HOME: join(opts.home, '.local', 'share'),
    TMPDIR: process.env.TMPDIR,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: opts.baseUrl ?? UNREACHABLE_BASE_URL,
    CI: 'true',
    WICKET_HOME: join(opts.home, '.wicket'),
    NO_COLOR: '1',
    // Language servers found on the PATH stay off unless a test turns them on (WICKET_LSP: undefined).
    WICKET_LSP: '0',
    ...opts.env,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

function dump(stdout: string, stderr: string): string {
  return `--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
}

function makeResult(code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string): CliResult {
  const parse = <T>(text: string, what: string): T => {
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new Error(`${what} is not JSON (${String(err)})\n${dump(stdout, stderr)}`);
    }
  };
  return {
    code,
    signal,
    stdout,
    stderr,
    json: <T>() => parse<T>(stdout, 'stdout'),
    lines: <T>() =>
      stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line, i) => parse<T>(line, `stdout line ${i + 1}`)),
  };
}

/** Start the CLI and return at once: for tests that signal it (SIGINT) or talk to it mid-run. */
export function spawnCli(args: string[], opts: RunCliOptions): CliProcess {
  const fd = opts.stdinFile === undefined ? undefined : openSync(opts.stdinFile, 'r');
  const [cmd, argv] = opts.asCommand ? [BIN_PATH, args] : [process.execPath, [BIN_PATH, ...args]];
  const child = spawn(cmd, argv, { cwd: opts.cwd, env: cliEnv(opts), stdio: [fd ?? 'pipe', 'pipe', 'pipe'] });
  if (fd !== undefined) closeSync(fd); // the child holds its own copy
  let stdout = '';
  let stderr = '';
  let closed = false;
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin?.on('error', () => {}); // the child may exit before reading its stdin
  child.stdin?.end(opts.stdin);
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const result = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`wicket ${args.join(' ')} timed out after ${timeoutMs} ms\n${dump(stdout, stderr)}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`could not start wicket: ${err.message}\n${dump(stdout, stderr)}`));
    });
    child.on('close', (code, signal) => {
      closed = true;
      clearTimeout(timer);
      resolve(makeResult(code, signal, stdout, stderr));
    });
  });
  result.catch(() => {}); // reported to whoever awaits it; never an unhandled rejection
  const waitFor: CliProcess['waitFor'] = (pattern, o = {}) => {
    const read = () => (o.stream === 'stderr' ? stderr : stdout);
    const matches = () => (typeof pattern === 'string' ? read().includes(pattern) : pattern.test(read()));
    return new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (matches()) return finish(resolve);
        if (closed) finish(() => reject(new Error(`wicket exited before printing ${String(pattern)}\n${dump(stdout, stderr)}`)));
        else if (Date.now() - started > (o.timeoutMs ?? timeoutMs))
          finish(() => reject(new Error(`timed out waiting for ${String(pattern)}\n${dump(stdout, stderr)}`)));
      }, 10);
      const finish = (then: () => void) => {
        clearInterval(poll);
        then();
      };
    });
  };
  // With stdinFile the child has no stdin pipe; the tests that write to it never pass one.
  return { child: child as ChildProcessWithoutNullStreams, stdout: () => stdout, stderr: () => stderr, waitFor, result };
}

/** Run the CLI to completion. Rejects (after killing it) on timeout, with its output in the message. */
export function runCli(args: string[], opts: RunCliOptions): Promise<CliResult> {
  return spawnCli(args, opts).result;
}

/** Throw, with stdout and stderr dumped, unless the run exited with `code`. */
export function expectExit(result: CliResult, code: number): CliResult {
  if (result.code !== code) {
    const how = result.signal ? `signal ${result.signal}` : `code ${result.code}`;
    throw new Error(`expected wicket to exit with code ${code}, got ${how}\n${dump(result.stdout, result.stderr)}`);
  }
  return result;
}
