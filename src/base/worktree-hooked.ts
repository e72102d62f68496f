/**
 * Worktrees for `--worktree` and `isolation: "worktree"`, made by the WorktreeCreate hooks when some
 * are configured (a jj, Sapling or other checkout, anywhere) and by git otherwise; removed, when the
 * work left them unchanged, by the WorktreeRemove hooks when some are configured and by git
 * otherwise. Whether a hook-made worktree changed is judged from its files' sizes and times, as no
 * version control can be assumed there.
 */
import path from 'node:path';
import type { HookEvent } from './hook-config.js';
import { createWorktree, finishWorktree, type Worktree } from './git-worktree.js';

/** The part of the hooks that makes and removes worktrees (the session's Hooks, hooks/types.ts, have it). */
export interface WorktreeHooks {
  /** WorktreeCreate (no matcher): configured, its hooks make the worktree instead of git. Undefined when none is configured. */
  worktreeCreate?(info: { name: string }, signal: AbortSignal): Promise<{ path: string } | { error: string } | undefined>;
  /** WorktreeRemove (no matcher): configured, its hooks remove a worktree instead of git; false when none is. Cannot block. */
  worktreeRemove?(info: { worktreePath: string }, signal: AbortSignal): Promise<boolean>;
  /** Whether any hook would run for the event (ignoring matchers). */
  handles?(event: HookEvent): boolean;
}

export interface MakeWorktree {
  /** The worktree's name: its folder under `.claude/worktrees/`, and what the hooks get as `name`. */
  name: string;
  branch?: string;
  fresh?: boolean;
}

export async function makeWorktree(cwd: string, o: MakeWorktree, hooks: WorktreeHooks | undefined, signal: AbortSignal): Promise<Worktree> {
  const made = await hooks?.worktreeCreate?.({ name: o.name }, signal);
  if (!made) return createWorktree(cwd, { dir: o.name, ...(o.branch ? { branch: o.branch } : {}), ...(o.fresh ? { fresh: true } : {}) });
  if ('error' in made) throw new Error(`the WorktreeCreate hook could not make the worktree: ${made.error}`);
  return { root: made.path, cwd: made.path, branch: '', base: '', madeByHook: { files: await filesOf(made.path) } };
}

/** Removes the worktree when the work left it unchanged; otherwise (or when nothing can remove it) says where it is. */
export async function closeWorktree(wt: Worktree, hooks: WorktreeHooks | undefined): Promise<string> {
  // Removal runs to its end even when the run that used the worktree was interrupted.
  const removeByHooks = async (root: string) => (await hooks?.worktreeRemove?.({ worktreePath: root }, new AbortController().signal)) === true;
  if (!wt.madeByHook) return finishWorktree(wt, removeByHooks);
  const before = wt.madeByHook.files;
  const now = await filesOf(wt.root);
  if (!before || !now || !sameFiles(before, now)) {
    return `The work is in the worktree ${wt.root} (made by the WorktreeCreate hook); the project's own files are untouched. Review it there, then merge or copy what you want.`;
  }
  if (await removeByHooks(wt.root)) return 'No files changed; the WorktreeRemove hooks removed the worktree.';
  return `No files changed; the worktree ${wt.root} was made by a WorktreeCreate hook and no WorktreeRemove hook is configured, so it stays.`;
}

/** Folders of version control, whose own bookkeeping is not the work. */
const SKIPPED = new Set(['.git', '.jj', '.hg', '.sl', '.svn']);
const MAX_FILES = 20_000;

/** Every file under `root` → its size and modification time; undefined when there are too many, or it cannot be read. */
async function filesOf(root: string): Promise<Map<string, string> | undefined> {
  const { readdir, stat } = process.getBuiltinModule('node:fs/promises');
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<boolean> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && SKIPPED.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(await walk(full))) return false;
        continue;
      }
      const st = await stat(full).catch(() => undefined);
      files.set(path.relative(root, full), st ? `${st.size}:${st.mtimeMs}` : 'unreadable');
      if (files.size > MAX_FILES) return false;
    }
    return true;
  };
  try {
    return (await walk(root)) ? files : undefined;
  } catch {
    return undefined;
  }
}

function sameFiles(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}
