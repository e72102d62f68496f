/**
 * The instruction files of a session's start, in Claude Code's order (the model reads them in this
 * order; later ones are the more specific):
 *   1. the managed policy: `CLAUDE.md` beside the managed settings, the managed settings' `claudeMd`
 *      text, and `.claude/rules/` there;
 *   2. the user's: `<config dir>/CLAUDE.md` and `<config dir>/rules/`;
 *   3. each folder from the file system's root (left out) down to the working directory: its
 *      `CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/` and `CLAUDE.local.md`;
 *   4. `--add-dir` folders, with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1;
 *   5. auto memory's `MEMORY.md`;
 * each followed by what it imports; rules with `paths:` wait until a matching file is touched. Then
 * `AGENTS.md` where Claude Code reads it (agents-md.ts). In a linked git worktree, the main
 * checkout's project files above it are left out (the worktree has its own copies).
 */
import path from 'node:path';
import { repositoryRoot } from '../../base/git-status.js';
import { isInside } from '../../base/paths.js';
import { addAgentsFiles, type AgentsMode } from './agents-md.js';
import { mainRepositoryRoot, readMemoryIndex } from './auto-memory.js';
import { readContext, readInstructionFile, type ReadContext } from './read-file.js';
import { readRulesDir } from './rules-dir.js';
import type { Discovery, InstructionFile } from './types.js';

/** The path the managed settings' `claudeMd` text is shown under. */
export const MANAGED_SETTINGS_PATH = '<managed-settings>';

export interface DiscoverOptions {
  cwd: string;
  home: string;
  /** `~/.claude` or CLAUDE_CONFIG_DIR. */
  configDir: string;
  /** The folder of the managed settings file (`/etc/claude-code`). */
  managedDir: string;
  /** The managed settings' `claudeMd` text. */
  managedClaudeMd?: string;
  /** Settings `claudeMdExcludes`. */
  excludes?: unknown;
  /** The Read deny rule that covers a path, if one does. */
  deniedBy: (file: string) => string | undefined;
  /** The person approved imports from outside the working directory. */
  externalApproved?: boolean;
  /** The person was asked and declined them. */
  externalDeclined?: boolean;
  /** Which setting sources count (`--setting-sources`): without `user`, no user files; without `project`, no project files; without `local`, no CLAUDE.local.md. */
  sources?: { user: boolean; project: boolean; local: boolean };
  /** `--add-dir` folders whose instruction files load too. */
  additionalDirs?: readonly string[];
  /** The auto memory folder, when auto memory is on. */
  autoMemoryDir?: string;
  agentsMode?: AgentsMode;
  /** Where what lexing a file gave is kept across starts (lexed-cache.ts); none: lexed each time. */
  lexCacheDir?: string;
}

export function discoverInstructions(o: DiscoverOptions): Discovery {
  const sources = o.sources ?? { user: true, project: true, local: true };
  const ctx = readContext(o, o.externalApproved === true);
  const files: InstructionFile[] = [];
  files.push(...readInstructionFile(path.join(o.managedDir, 'CLAUDE.md'), 'Managed', ctx));
  if (o.managedClaudeMd?.trim()) files.push({ path: MANAGED_SETTINGS_PATH, type: 'Managed', content: o.managedClaudeMd });
  files.push(...readRulesDir(path.join(o.managedDir, '.claude', 'rules'), 'Managed', ctx, { conditional: false }));
  if (sources.user) {
    files.push(...readInstructionFile(path.join(o.configDir, 'CLAUDE.md'), 'User', ctx));
    files.push(...readRulesDir(path.join(o.configDir, 'rules'), 'User', ctx, { conditional: false, external: true }));
  }
  files.push(...projectFiles(o, ctx, sources));
  if (o.autoMemoryDir) {
    const index = readMemoryIndex(o.autoMemoryDir, o.deniedBy);
    if (index && !ctx.processed.has(index.path)) files.push(index);
  }
  const withAgents = addAgentsFiles(files, { ...o, ctx, dirs: sources.project ? walkDirs(o.cwd) : [] });
  return { files: withAgents, skipped: ctx.skipped };
}

/** Folders from the root (left out) down to `cwd`, the root's side first. */
export function walkDirs(cwd: string): string[] {
  const dirs: string[] = [];
  for (let d = path.resolve(cwd); d !== path.parse(d).root; d = path.dirname(d)) dirs.unshift(d);
  return dirs;
}

function projectFiles(o: DiscoverOptions, ctx: ReadContext, sources: { project: boolean; local: boolean }): InstructionFile[] {
  const out: InstructionFile[] = [];
  const worktree = linkedWorktree(o.cwd);
  for (const dir of walkDirs(o.cwd)) {
    const project = sources.project && !(worktree && isInside(dir, worktree.main) && !isInside(dir, worktree.root));
    if (project) {
      out.push(...readInstructionFile(path.join(dir, 'CLAUDE.md'), 'Project', ctx));
      out.push(...readInstructionFile(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', ctx));
      out.push(...readRulesDir(path.join(dir, '.claude', 'rules'), 'Project', ctx, { conditional: false }));
    }
    if (sources.local) out.push(...readInstructionFile(path.join(dir, 'CLAUDE.local.md'), 'Local', ctx));
  }
  for (const dir of o.additionalDirs ?? []) {
    if (sources.project) {
      out.push(...readInstructionFile(path.join(dir, 'CLAUDE.md'), 'Project', ctx));
      out.push(...readInstructionFile(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', ctx));
      out.push(...readRulesDir(path.join(dir, '.claude', 'rules'), 'Project', ctx, { conditional: false }));
    }
    if (sources.local) out.push(...readInstructionFile(path.join(dir, 'CLAUDE.local.md'), 'Local', ctx));
  }
  return out;
}

/** A linked worktree inside its main checkout: both roots; undefined otherwise. */
function linkedWorktree(cwd: string): { root: string; main: string } | undefined {
  const root = repositoryRoot(cwd);
  const main = root && mainRepositoryRoot(root);
  return root && main && main !== root && isInside(root, main) ? { root, main } : undefined;
}
