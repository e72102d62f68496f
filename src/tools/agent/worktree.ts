/**
 * `isolation: "worktree"`: each run of the sub-agent works in a git worktree of its own
 * (core/git-worktree.ts), on a new branch (settings `worktree.baseRef` says from where); its report
 * ends with what became of it.
 */
import { createWorktree, finishWorktree } from '../../core/git-worktree.js';
import type { SubagentSpec } from '../../core/subagent.js';
import type { ToolContext } from '../tool.js';

type RunSubagent = NonNullable<ToolContext['runSubagent']>;

/** A sub-agent runner that puts each run in a fresh worktree and reports where its work went. */
export function inWorktree(run: RunSubagent, cwd: string, systemFor: (cwd: string) => SubagentSpec['system'], fresh: boolean): RunSubagent {
  return async (spec, signal, onEvent, o) => {
    const wt = await createWorktree(cwd, { fresh });
    const result = await run({ ...spec, cwd: wt.cwd, system: systemFor(wt.cwd) }, signal, onEvent, o).catch(async (err: unknown) => {
      await finishWorktree(wt).catch(() => undefined);
      throw err;
    });
    const note = await finishWorktree(wt).catch((err: unknown) => `Its worktree ${wt.root} could not be checked: ${(err as Error).message}`);
    return { ...result, text: result.text ? `${result.text}\n\n${note}` : note };
  };
}
