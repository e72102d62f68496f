/**
 * `isolation: "worktree"`: each run of the sub-agent works in a worktree of its own, made by the
 * WorktreeCreate hooks when configured, else by git (base/git-worktree.ts) on a new branch (settings
 * `worktree.baseRef` says from where); its report ends with what became of it.
 */
import { randomHex } from '../../base/ids.js';
import type { SubagentSpec, ToolContext } from '../../base/tool.js';
import { closeWorktree, makeWorktree, type WorktreeHooks } from '../../base/worktree-hooked.js';

type RunSubagent = NonNullable<ToolContext['runSubagent']>;

/** A sub-agent runner that puts each run in a fresh worktree and reports where its work went. */
export function inWorktree(
  run: RunSubagent,
  cwd: string,
  systemFor: (cwd: string) => SubagentSpec['system'],
  fresh: boolean,
  hooks?: WorktreeHooks,
): RunSubagent {
  return async (spec, signal, onEvent, o) => {
    const wt = await makeWorktree(cwd, { name: `agent-${randomHex(4)}`, fresh }, hooks, signal);
    const result = await run({ ...spec, cwd: wt.cwd, system: systemFor(wt.cwd) }, signal, onEvent, o).catch(async (err: unknown) => {
      await closeWorktree(wt, hooks).catch(() => undefined);
      throw err;
    });
    const note = await closeWorktree(wt, hooks).catch((err: unknown) => `Its worktree ${wt.root} could not be checked: ${(err as Error).message}`);
    return { ...result, text: result.text ? `${result.text}\n\n${note}` : note };
  };
}
