/**
 * The project's own git state, as a snapshot records it and a restore compares it: the commit HEAD
 * names and the branch checked out. Read with `git rev-parse` and `git symbolic-ref`, which never
 * write to the repository.
 */
import { mayBeInRepository } from '../../base/git-status.js';
import { runGit, shadowEnv } from '../../session/shadow-git-run.js';

export interface ProjectHead {
  /** The commit HEAD names ('' on a branch with no commit yet). */
  head: string;
  /** `refs/heads/<name>`, or `HEAD` when detached. */
  branch: string;
}

/** The project's HEAD and branch; undefined when it is not a git repository (or git cannot tell). */
export async function projectHead(root: string): Promise<ProjectHead | undefined> {
  if (!mayBeInRepository(root)) return undefined;
  const env = { ...shadowEnv(undefined), GIT_OPTIONAL_LOCKS: '0' };
  try {
    const [head, branch] = await Promise.all([
      runGit(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], env, root, { okCodes: [0, 1] }),
      runGit(['symbolic-ref', '-q', 'HEAD'], env, root, { okCodes: [0, 1] }),
    ]);
    return { head: head.stdout.toString('utf8').trim(), branch: branch.stdout.toString('utf8').trim() || 'HEAD' };
  } catch {
    return undefined;
  }
}

/** Why the project's git state differs from the one a snapshot recorded; undefined when it is the same. */
export function headMoved(then: { head?: string; branch?: string }, now: ProjectHead | undefined): string | undefined {
  if (then.head === undefined || !now) return undefined;
  const short = (s: string) => (s ? s.slice(0, 10) : 'no commit');
  const name = (b: string | undefined) => (b === 'HEAD' ? 'a detached HEAD' : (b ?? '').replace(/^refs\/heads\//, ''));
  if (then.branch !== undefined && then.branch !== now.branch)
    return `the project's git branch changed since then (${name(then.branch)} → ${name(now.branch)})`;
  if (then.head !== now.head) return `the project's git HEAD moved since then (${short(then.head)} → ${short(now.head)}: a commit, a reset or a checkout)`;
  return undefined;
}
