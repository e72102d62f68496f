/**
 * Git worktrees under `.claude/worktrees/` of the repository, on branches of their own, so that
 * work done there (a sub-agent with `isolation: "worktree"`, a session started with --worktree)
 * leaves the person's checkout alone. One left as it was made is removed afterwards; one with
 * changes stays, and the note says where.
 */
import path from 'node:path';
import { execaLib } from './lib/execa-lib.js';
import { randomHex } from './ids.js';

export interface Worktree {
  /** The worktree's top folder. */
  root: string;
  /** Where the agent starts: the same place in the worktree as the session's folder in the repository. */
  cwd: string;
  branch: string;
  /** The commit it was made from. */
  base: string;
  /** Made by the WorktreeCreate hooks (not git): each file's size and time then, to tell whether the work changed any. */
  madeByHook?: { files: Map<string, string> | undefined };
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { execa } = await execaLib();
  const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore', timeout: 30_000 });
  if (r.exitCode !== 0)
    throw new Error(
      String(r.stderr || r.stdout || `git ${args[0]} failed`)
        .trim()
        .split('\n')[0],
    );
  return String(r.stdout).trim();
}

/** What a worktree made from `cwd` would need and lacks ("a git repository, …"), or undefined when it can be made. */
export async function worktreeMissing(cwd: string): Promise<string | undefined> {
  try {
    await git(cwd, ['rev-parse', '--show-toplevel']);
  } catch {
    return 'a git repository, and this folder is not in one';
  }
  try {
    await git(cwd, ['rev-parse', '--verify', 'HEAD']);
    return undefined;
  } catch {
    return 'a commit to start from, and this repository has none yet';
  }
}

/**
 * A new worktree `.claude/worktrees/<dir>` on a new `branch` from HEAD, or (`fresh`) from the
 * remote's default branch when the repository knows it. One that exists already is used again.
 */
/** Settings `worktree.baseRef`: "head" starts new worktrees from HEAD; "fresh" (the default) from the remote's default branch. */
export function startsFresh(settings: Record<string, unknown>): boolean {
  const w = settings.worktree;
  return !(w && typeof w === 'object' && (w as { baseRef?: unknown }).baseRef === 'head');
}

export async function createWorktree(cwd: string, o: { dir?: string; branch?: string; fresh?: boolean } = {}): Promise<Worktree> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  const id = randomHex(4);
  const root = path.join(top, '.claude', 'worktrees', o.dir ?? `agent-${id}`);
  const branch = o.branch ?? `wicket/agent-${id}`;
  const from = (o.fresh && (await git(top, ['rev-parse', '--verify', '-q', 'refs/remotes/origin/HEAD']).catch(() => ''))) || 'HEAD';
  const base = await git(top, ['rev-parse', from]);
  const existing = await git(top, ['worktree', 'list', '--porcelain']).catch(() => '');
  // Used again (a resumed session): what it holds beyond where it forked counts as its work.
  if (existing.split('\n').includes(`worktree ${root}`))
    return { root, cwd: path.join(root, path.relative(top, cwd)), branch, base: await git(root, ['merge-base', 'HEAD', base]).catch(() => base) };
  await git(top, ['worktree', 'add', '-b', branch, root, base]);
  await excludeWorktrees(top).catch(() => undefined);
  return { root, cwd: path.join(root, path.relative(top, cwd)), branch, base };
}

/** Keeps `.claude/worktrees/` out of the checkout's `git status`, in the repository's own exclude file (never committed). */
async function excludeWorktrees(top: string): Promise<void> {
  const { appendFile, readFile } = process.getBuiltinModule('node:fs/promises');
  const file = path.resolve(top, await git(top, ['rev-parse', '--git-common-dir']), 'info', 'exclude');
  const now = await readFile(file, 'utf8').catch(() => '');
  if (!now.split('\n').includes(EXCLUDE)) await appendFile(file, `${now && !now.endsWith('\n') ? '\n' : ''}${EXCLUDE}\n`);
}

const EXCLUDE = '/.claude/worktrees/';

/**
 * Removes an unchanged worktree (and its branch); describes what a changed one holds. `removeByHooks`
 * (the WorktreeRemove hooks, when configured) removes it instead of git.
 */
export async function finishWorktree(wt: Worktree, removeByHooks?: (root: string) => Promise<boolean>): Promise<string> {
  const changed = await git(wt.root, ['status', '--porcelain']).catch(() => 'unknown');
  const commits = Number(await git(wt.root, ['rev-list', '--count', `${wt.base}..HEAD`]).catch(() => '1'));
  if (!changed && commits === 0) {
    if (await removeByHooks?.(wt.root)) return 'No files changed; the WorktreeRemove hooks removed the worktree.';
    await git(wt.root, ['worktree', 'remove', '--force', wt.root]).catch(() => undefined);
    await git(path.dirname(wt.root), ['branch', '-D', wt.branch]).catch(() => undefined);
    return 'No files changed; the worktree was removed.';
  }
  const files = changed === 'unknown' ? 0 : changed.split('\n').filter(Boolean).length;
  const what = [files ? `${files} changed file${files === 1 ? '' : 's'}` : '', commits ? `${commits} commit${commits === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(' and ');
  return `The work (${what}) is in the worktree ${wt.root}, on branch ${wt.branch}; the project's own files are untouched. Review it there, then merge or copy what you want.`;
}
