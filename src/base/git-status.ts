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
  return Boolean(process.env.GIT_DIR) || repositoryRoot(cwd) !== undefined;
}

/** The nearest folder from `cwd` up that holds a `.git` (a folder, or a worktree's file); undefined outside a repository. */
export function repositoryRoot(cwd: string): string | undefined {
  const { existsSync } = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** `null`: not a git repository (or git is missing). */
export function gitStatusSync(cwd: string): GitStatus | null {
  if (!mayBeInRepository(cwd)) return null;
  try {
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    return parseGitStatus(execFileSync('git', ARGS, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: TIMEOUT_MS }));
  } catch {
    return null;
  }
}

export function startGitStatus(cwd: string): Promise<GitStatus | null> {
  if (!mayBeInRepository(cwd)) return Promise.resolve(null);
  return new Promise((resolve) => {
    try {
      const { execFile } = process.getBuiltinModule('node:child_process');
      const child = execFile('git', ARGS, { cwd, encoding: 'utf8', timeout: TIMEOUT_MS }, (err, stdout) => resolve(err ? null : parseGitStatus(stdout)));
      child.stdin?.end();
    } catch {
      resolve(null);
    }
  });
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
