/**
 * Workspace trust, kept where Claude Code keeps it: `projects["<folder>"].hasTrustDialogAccepted` in
 * `~/.claude.json`. A project's own settings files can carry `permissions.allow` rules and
 * `permissions.additionalDirectories`; those take effect only in a folder the person has trusted,
 * so a cloned repository cannot grant itself the right to run commands unasked. Deny and ask rules
 * always apply. The app asks once per folder; print mode never asks, and says what it left out.
 *
 * A folder is trusted when it or any folder above it was trusted. Trust is saved for the repository's
 * root (the folder itself outside a repository), except for the home folder, which is trusted for
 * the session only: saving it would trust every folder under it.
 */
import path from 'node:path';
import { repositoryRoot } from '../base/git-status.js';
import { editJsonObject, projectEntry, readJsonObjectShared } from './global-config.js';
import { globalConfigPath } from './paths.js';

export interface TrustWhere {
  cwd: string;
  home: string;
  configDir?: string;
}

/** Whether `cwd` or a folder above it is trusted; an unreadable `~/.claude.json` trusts nothing. */
export function isWorkspaceTrusted(where: TrustWhere): boolean {
  let projects: unknown;
  try {
    projects = readJsonObjectShared(globalConfigPath(where.home, where.configDir)).projects;
  } catch {
    return false;
  }
  if (!projects || typeof projects !== 'object') return false;
  const byDir = projects as Record<string, { hasTrustDialogAccepted?: unknown } | undefined>;
  for (let dir = path.resolve(where.cwd); ; dir = path.dirname(dir)) {
    if (byDir[dir]?.hasTrustDialogAccepted === true) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

/** The folder trust is saved for: the repository's root, else the folder itself. */
export function trustFolder(cwd: string): string {
  return repositoryRoot(cwd) ?? path.resolve(cwd);
}

/**
 * Records that the person trusts the workspace. Returns false (and saves nothing) for the home
 * folder, whose trust lasts for the session. Throws with the file named when it cannot be written.
 */
export async function saveWorkspaceTrust(where: TrustWhere): Promise<boolean> {
  const folder = trustFolder(where.cwd);
  if (folder === path.resolve(where.home)) return false;
  await editJsonObject(globalConfigPath(where.home, where.configDir), (data) => {
    projectEntry(data, folder, true)!.hasTrustDialogAccepted = true;
  });
  return true;
}
