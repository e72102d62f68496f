/**
 * The answer to "Allow external CLAUDE.md file imports?", kept where Claude Code keeps it: in
 * `~/.claude.json`, `projects["<repository root, else the folder>"]`, as
 * `hasClaudeMdExternalIncludesApproved` (the answer) and `hasClaudeMdExternalIncludesWarningShown`
 * (the question was asked: it is not asked again, whatever the answer). The app asks once per
 * project; print mode never asks, and reads imports from outside the working directory only when
 * the answer was yes.
 */
import path from 'node:path';
import { repositoryRoot } from '../base/git-status.js';
import { editJsonObject, projectEntry, readJsonObjectShared } from './global-config.js';
import { globalConfigPath } from './paths.js';

export interface ImportsWhere {
  cwd: string;
  home: string;
  /** CLAUDE_CONFIG_DIR, when set. */
  configDir?: string;
}

export interface ImportsAnswer {
  /** The person allowed imports from outside the working directory. */
  approved: boolean;
  /** The person was asked (and answered either way). */
  asked: boolean;
}

/** The folder the answer is saved under: the repository's root, else the folder itself (as Claude Code does). */
export function importsFolder(cwd: string): string {
  return repositoryRoot(cwd) ?? path.resolve(cwd);
}

/** The answer saved for the folder, its repository or `more` folders; an unreadable `~/.claude.json` approves nothing. */
export function externalImportsAnswer(where: ImportsWhere, more: readonly string[] = []): ImportsAnswer {
  let data: Record<string, unknown>;
  try {
    data = readJsonObjectShared(globalConfigPath(where.home, where.configDir));
  } catch {
    return { approved: false, asked: false };
  }
  const entries = [...new Set([path.resolve(where.cwd), importsFolder(where.cwd), ...more])].flatMap((dir) => projectEntry(data, dir, false) ?? []);
  return {
    approved: entries.some((e) => e.hasClaudeMdExternalIncludesApproved === true),
    asked: entries.some((e) => e.hasClaudeMdExternalIncludesWarningShown === true || e.hasClaudeMdExternalIncludesApproved === true),
  };
}

/** Saves the person's answer; throws with the file named when it cannot be written. */
export async function saveExternalImportsAnswer(where: ImportsWhere, approved: boolean): Promise<void> {
  await editJsonObject(globalConfigPath(where.home, where.configDir), (data) => {
    const entry = projectEntry(data, importsFolder(where.cwd), true)!;
    entry.hasClaudeMdExternalIncludesApproved = approved;
    entry.hasClaudeMdExternalIncludesWarningShown = true;
  });
}
