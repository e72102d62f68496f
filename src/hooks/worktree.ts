/**
 * WorktreeCreate hooks make the worktree in place of git (so a jj, Sapling or other checkout can be
 * one): a command hook prints the new folder's absolute path (its last line counts), an http or
 * mcp_tool hook may answer `hookSpecificOutput.worktreePath`. Any hook that does not finish with
 * exit 0, or a path that is missing, relative or not a folder, fails the creation.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { specific, stringField, type HookVerdict } from './output.js';

export type WorktreeMade = { path: string } | { error: string };

/** The path the hooks gave, or why the worktree cannot be used. */
export function worktreePathOf(verdicts: HookVerdict[]): WorktreeMade {
  let made: string | undefined;
  for (const v of verdicts) {
    if (v.failed) return { error: `${v.label} ${v.failed}` };
    const given = stringField(specific(v.json).worktreePath) ?? lastLine(v.plainText);
    if (!given) return { error: `${v.label} gave no worktree path (print the absolute path of the folder it made)` };
    made ??= given.trim();
  }
  if (made === undefined) return { error: 'no WorktreeCreate hook gave a worktree path' };
  if (!path.isAbsolute(made)) return { error: `the WorktreeCreate hook gave "${made}", which is not an absolute path` };
  if (!isDirectory(made)) return { error: `the WorktreeCreate hook gave "${made}", which is not a folder` };
  return { path: path.normalize(made) };
}

function lastLine(text: string | undefined): string | undefined {
  return text
    ?.split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Leaves out of `notices` those these verdicts added (their failure is reported as the creation's error instead). */
export function withoutNoticesOf(notices: string[], verdicts: HookVerdict[]): void {
  for (const n of verdicts.flatMap((v) => v.notices)) {
    const i = notices.indexOf(n);
    if (i >= 0) notices.splice(i, 1);
  }
}
