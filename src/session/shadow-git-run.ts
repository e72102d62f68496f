/**
 * Runs the system's git for a shadow repository (shadow-git.ts): `GIT_DIR`, `GIT_WORK_TREE` and
 * `GIT_INDEX_FILE` always point at the shadow and the project, so the project's own `.git` is never
 * read or written; the person's git configuration (hooks, filters, fsmonitor, signing) is not read,
 * every pathspec is literal, and a nested repository's index is never written.
 */

export interface GitPlace {
  gitDir: string;
  workTree: string;
  indexFile: string;
}

export interface GitRunOptions {
  /** Bytes written to git's stdin. */
  input?: Buffer | string;
  /** Exit codes that are not failures (default: 0 only). */
  okCodes?: readonly number[];
  /** Killed after this long (default 60 s). */
  timeoutMs?: number;
  /** The process's niceness (a scan made ahead, in the background: below the app's). */
  niceness?: number;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The shadow's settings: a work tree given by GIT_WORK_TREE, git's stat and untracked caches, no hooks, no gc of its own. */
export const SHADOW_CONFIG = `[core]
\tbare = false
\tuntrackedCache = true
\tfsmonitor = false
\tautocrlf = false
\tsafecrlf = false
\tfileMode = true
\tsymlinks = true
\tquotePath = false
\thooksPath = /dev/null
[index]
\tversion = 4
[gc]
\tauto = 0
[commit]
\tgpgSign = false
[advice]
\taddEmbeddedRepo = false
\taddIgnoredFile = false
`;

/** The environment of a shadow git: the caller's, less every GIT_* variable, plus the shadow's places. */
export function shadowEnv(place: GitPlace | undefined, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!k.startsWith('GIT_')) env[k] = v;
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_LITERAL_PATHSPECS: '1',
    // `git add` runs `git status` inside a nested repository to see whether it is dirty: that status
    // must not write the nested repository's index, nor run its fsmonitor
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'core.fsmonitor',
    GIT_CONFIG_VALUE_0: 'false',
    GIT_AUTHOR_NAME: 'wicket',
    GIT_AUTHOR_EMAIL: 'wicket@localhost',
    GIT_COMMITTER_NAME: 'wicket',
    GIT_COMMITTER_EMAIL: 'wicket@localhost',
    LC_ALL: 'C',
  });
  if (place) Object.assign(env, { GIT_DIR: place.gitDir, GIT_WORK_TREE: place.workTree, GIT_INDEX_FILE: place.indexFile });
  return env;
}

/** Runs `git args` with `env` in `cwd`; rejects with git's message when it fails. */
export function runGit(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, opts: GitRunOptions = {}): Promise<GitResult> {
  return runCommand('git', args, env, cwd, opts);
}

/** Runs `cmd args` (git, or find for the modes of a snapshot) with `env` in `cwd`; rejects with its message when it fails. */
export function runCommand(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, opts: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // node:child_process loads on the first run, not with the session.
    const child = process.getBuiltinModule('node:child_process').spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    if (opts.niceness && child.pid) {
      try {
        process.getBuiltinModule('node:os').setPriority(child.pid, opts.niceness);
      } catch {
        // it runs at the caller's priority
      }
    }
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 8000) err += b.toString('utf8');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} could not be started: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: err };
      if ((opts.okCodes ?? [0]).includes(result.code)) return resolve(result);
      const why = signal ? `killed (${signal})` : err.trim().split('\n').slice(-3).join(' ') || `exit code ${result.code}`;
      reject(new Error(`${cmd} ${args[0]} failed: ${why}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** NUL-separated fields of git's `-z` output. */
export function nulFields(out: Buffer): string[] {
  const text = out.toString('utf8');
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
