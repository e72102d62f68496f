import { homedir } from 'node:os';
import { startsFresh, worktreeMissing, type Worktree } from '../base/git-worktree.js';
import { randomUuid } from '../base/ids.js';
import { closeWorktree, makeWorktree } from '../base/worktree-hooked.js';
import { createHooks, type SettingsHooks } from '../hooks/create.js';
import { usePlugins } from '../plugins/session.js';
import type { LoadedSettings } from '../settings/load.js';
import { userConfigDir } from '../settings/paths.js';
import { transcriptFile } from '../session/paths.js';
import type { CliOptions } from '../core/setup/options.js';
import { sessionSettings } from '../core/setup/session-setup.js';

export interface SessionWorktree {
  wt: Worktree;
  hooks: SettingsHooks | undefined;
}

/** Makes (or finds) the worktree `.claude/worktrees/<name>` on branch `worktree-<name>`, or has the hooks make it, and moves into it. */
export async function enterWorktree(opts: CliOptions, signal: AbortSignal): Promise<SessionWorktree> {
  const name = opts.worktree ?? true;
  const dir = name === true ? `session-${randomUuid().slice(0, 8)}` : name;
  if (!/^[\w.-]+$/.test(dir) || dir.startsWith('.')) throw new Error(`"${dir}" is not a usable name: use letters, digits, ".", "_" and "-"`);
  const cwd = process.cwd();
  const home = process.env.HOME ?? homedir();
  const settings = sessionSettings(opts, process.env, cwd, home);
  const hooks = worktreeHooks(opts, settings, cwd, home);
  if (!hooks?.handles('WorktreeCreate')) {
    const missing = await worktreeMissing(cwd);
    if (missing) throw new Error(`a worktree needs ${missing}, or WorktreeCreate hooks that make one`);
  }
  const wt = await makeWorktree(cwd, { name: dir, branch: `worktree-${dir}`, fresh: startsFresh(settings.merged) }, hooks, signal);
  process.chdir(wt.cwd);
  return { wt, hooks };
}

/** Removes the worktree if the session left it unchanged; the line for stderr says what became of it (and what the hooks reported). */
export async function leaveWorktree({ wt, hooks }: SessionWorktree): Promise<string[]> {
  const note = await closeWorktree(wt, hooks).catch((err: unknown) => `the worktree ${wt.root} could not be checked: ${(err as Error).message}`);
  return [...(hooks?.drainNotices() ?? []), note];
}

/**
 * The hooks that make and remove the session's worktree, before the session itself exists: they see
 * the session's id (fixed now for a new session) and the folder wicket started in.
 */
function worktreeHooks(opts: CliOptions, loaded: LoadedSettings, cwd: string, home: string): SettingsHooks | undefined {
  if (opts.bare) return undefined;
  usePlugins(opts, loaded, { cwd, home, env: process.env });
  if (!opts.sessionId && !opts.continue && opts.resume === undefined) opts.sessionId = randomUuid();
  const sessionId = opts.sessionId ?? '';
  return createHooks(loaded, {
    sessionId,
    cwd,
    projectRoot: cwd,
    transcriptPath: transcriptFile(userConfigDir(home, process.env.CLAUDE_CONFIG_DIR || undefined), cwd, sessionId),
    getPermissionMode: () => (opts.dangerouslySkipPermissions ? 'bypassPermissions' : (opts.permissionMode ?? loaded.defaultMode ?? 'default')),
    env: { ...process.env, ...loaded.env },
  });
}
