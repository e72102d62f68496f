/**
 * The git facts for the system prompt: the branch and a short status, from one `git status` call.
 * The entry starts it in the background before the main bundle loads, so it runs on another core
 * while the code loads; without that head start it runs synchronously.
 */
export interface GitStatus {
  branch: string;
  /** Up to 20 lines of `git status --short`; empty when clean. */
  status: string;
}

const ARGS = ['status', '--short', '--branch'];
const TIMEOUT_MS = 2000;

/**
 * Whether git could find a repository from `cwd`: a `.git` in it or an ancestor, or GIT_DIR set.
 * Starting git costs a process fork (~10 ms); outside a repository this answers without one.
 */
export function mayBeInRepository(cwd: string): boolean {
  return Boolean(process.env.GIT_DIR) || nearestDotGit(cwd, true) !== undefined;
}

/** The nearest folder from `cwd` up that holds a `.git` (a folder, or a worktree's file); undefined outside a repository. */
export function repositoryRoot(cwd: string): string | undefined {
  return nearestDotGit(cwd, false);
}

/**
 * The nearest folder from `cwd` up that holds a `.git`. With `asGit`, as git itself looks: a `.git`
 * file (a worktree's, a submodule's) or a `.git` folder with a HEAD; a folder without one (empty,
 * half made) is not a repository, and the search goes on above it.
 */
function nearestDotGit(cwd: string, asGit: boolean): string | undefined {
  const { existsSync, statSync } = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const st = statOrUndefined(statSync, dotGit);
    if (st && (!asGit || !st.isDirectory() || existsSync(path.join(dotGit, 'HEAD')))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** As existsSync: a path that cannot be looked at (no search permission) counts as absent. */
function statOrUndefined(statSync: typeof import('node:fs').statSync, file: string): import('node:fs').Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** git status only looks: it does not refresh the index (which would take its lock, and race a git the person runs). */
function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_OPTIONAL_LOCKS: '0' };
}

/** `null`: not a git repository (or git is missing). */
export function gitStatusSync(cwd: string): GitStatus | null {
  if (!mayBeInRepository(cwd)) return null;
  try {
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    return parseGitStatus(execFileSync('git', ARGS, { cwd, env: gitEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: TIMEOUT_MS }));
  } catch {
    return null;
  }
}

export function startGitStatus(cwd: string): Promise<GitStatus | null> {
  const early = launcherGitStatus();
  if (early) return early;
  if (!mayBeInRepository(cwd)) return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      // One pipe, for the output: each stream more is a pipe and a socket made while the code loads.
      const child = process.getBuiltinModule('node:child_process').spawn('git', ARGS, {
        cwd,
        env: gitEnv(),
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: TIMEOUT_MS,
      });
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.on('error', () => resolve(null));
      child.on('close', (code) => resolve(code === 0 ? parseGitStatus(out) : null));
    } catch {
      resolve(null);
    }
  });
}

/**
 * The `git status` that bin/wicket.js's shell line started before Node did (a shell forks far more
 * cheaply than Node, whose spawn waits for the child's exec): it names the file in
 * WICKET_GIT_STATUS, `<cache>/git-status-<pid>`, and writes git's exit code to `<file>.done` when
 * git is through. Undefined when the launcher started none for this process (then Node starts git).
 */
function launcherGitStatus(): Promise<GitStatus | null> | undefined {
  const file = process.env.WICKET_GIT_STATUS;
  // Not for the processes this one starts (a hook, a command, a nested wicket).
  delete process.env.WICKET_GIT_STATUS;
  const path = process.getBuiltinModule('node:path');
  if (!file || !path.isAbsolute(file) || path.basename(file) !== `git-status-${process.pid}`) return undefined;
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const read = (f: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return undefined;
    }
  };
  const done = (answer: GitStatus | null) => {
    for (const f of [file, `${file}.done`]) removeFile(f);
    return answer;
  };
  const deadline = Date.now() + TIMEOUT_MS;
  return new Promise((resolve) => {
    const look = () => {
      // The shell makes the file, then writes the code: an empty file is not an answer yet.
      const code = read(`${file}.done`);
      if (!code && Date.now() < deadline) return void setTimeout(look, 2);
      const out = code?.trim() === '0' ? read(file) : undefined;
      resolve(done(out === undefined ? null : parseGitStatus(out)));
    };
    look();
  });
}

/**
 * The launcher's files that no run read (it ended before git did) and that git finished after: an
 * hour old is surely not a run's still to come. Never throws.
 */
export function removeStaleGitStatusFiles(cacheDir: string, now = Date.now()): void {
  const { readdirSync, statSync } = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  try {
    for (const name of readdirSync(cacheDir)) {
      if (!name.startsWith('git-status-')) continue;
      const file = path.join(cacheDir, name);
      if (now - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? now) > 60 * 60 * 1000) removeFile(file);
    }
  } catch {
    // no cache folder, or an unreadable one: nothing to tidy
  }
}

/** Removes a file if it is there; unlink, not rm: Node's rmSync loads its recursive remover for one file too. */
function removeFile(file: string): void {
  try {
    process.getBuiltinModule('node:fs').unlinkSync(file);
  } catch {
    // already gone
  }
}

export function parseGitStatus(out: string): GitStatus {
  const [head = '', ...rest] = out.split('\n');
  const branch = /^## (?:No commits yet on )?([^.\s]+)/.exec(head)?.[1] ?? '(detached)';
  return { branch: head.startsWith('## HEAD') ? '(detached)' : branch, status: rest.filter(Boolean).slice(0, 20).join('\n') };
}

/**
 * The status without the entries a Read deny rule hides (`hidden`, on absolute paths): a name the
 * rules hide from every tool must not reach the model through the system prompt either. Paths in
 * `git status --short` are relative to `cwd`, C-quoted when they hold unusual characters; a renamed
 * entry (`old -> new`) goes when either side is hidden.
 */
export function statusWithout(status: string, cwd: string, hidden: (absPath: string) => boolean): string {
  const path = process.getBuiltinModule('node:path');
  return status
    .split('\n')
    .filter((line) => {
      const names = line.slice(3).split(' -> ').map(unquote);
      return !names.some((n) => hidden(path.resolve(cwd, n)));
    })
    .join('\n');
}

/** A path as git prints it: `"caf\303\251"` (C-quoted, octal UTF-8 bytes) or plain. */
function unquote(name: string): string {
  if (!name.startsWith('"') || !name.endsWith('"')) return name;
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(simple[body[i + 1]!] ?? body.charCodeAt(i + 1));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The files git's index holds in the work tree at `root` (paths relative to it), or undefined when
 * git cannot tell (not a repository, git missing, too slow): callers then assume the worst.
 */
export function trackedFilesSync(root: string): string[] | undefined {
  try {
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    const out = execFileSync('git', ['ls-files', '-z', '--full-name'], {
      cwd: root,
      env: gitEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: TIMEOUT_MS,
      maxBuffer: 256 * 1024 * 1024,
    });
    return out.split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}
