/**
 * Protected paths (reference/claude-code.md §3): writes there are never auto-approved — not by
 * acceptEdits, not by allow rules — except in bypassPermissions mode. They hold configuration that
 * runs code later (git hooks, shell start-up files, package-manager and editor settings) or that
 * grants permissions (.claude/). Matched by path segment at any depth, ignoring case, on the path as
 * given and on its real target.
 */
import path from 'node:path';
import { pathForms } from './real-path.js';

/** Folders whose whole content is protected. Multi-segment entries match consecutive segments. */
export const PROTECTED_DIRS: readonly string[] = ['.git', '.config/git', '.vscode', '.idea', '.husky', '.cargo', '.devcontainer', '.yarn', '.mvn', '.claude'];

/** Inside `.claude/`, these may be written freely: worktrees, and agents' memory folders (and auto memory, below). */
const CLAUDE_DIR_EXCEPTIONS = ['worktrees', 'agent-memory', 'agent-memory-local'];

export const PROTECTED_FILES: readonly string[] = [
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_aliases',
  '.bash_logout',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.profile',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnp.cjs',
  '.pnp.loader.mjs',
  '.pnpmfile.cjs',
  'bunfig.toml',
  '.bunfig.toml',
  '.bazelrc',
  '.bazelversion',
  '.bazeliskrc',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'gradle-wrapper.properties',
  'maven-wrapper.properties',
  '.devcontainer.json',
  '.ripgreprc',
  'pyrightconfig.json',
  '.mcp.json',
  '.claude.json',
];

export interface ProtectedContext {
  projectRoot?: string;
  homeDir?: string;
}

/** Why `absPath` is protected ("inside .git/", "shell start-up file .bashrc"), or undefined. */
export function protectedReason(absPath: string, _ctx: ProtectedContext = {}): string | undefined {
  for (const form of pathForms(absPath)) {
    const reason = reasonFor(form);
    if (reason) return reason;
  }
  return undefined;
}

export function isProtectedPath(absPath: string, ctx: ProtectedContext = {}): boolean {
  return protectedReason(absPath, ctx) !== undefined;
}

function reasonFor(p: string): string | undefined {
  const segments = p
    .split(path.sep)
    .filter(Boolean)
    .map((s) => s.toLowerCase());
  const name = segments[segments.length - 1];
  if (name && PROTECTED_FILES.includes(name)) return `${name} is a protected file`;
  for (const dir of PROTECTED_DIRS) {
    const parts = dir.split('/');
    for (let i = 0; i + parts.length <= segments.length; i++) {
      if (!parts.every((part, j) => segments[i + j] === part)) continue;
      const next = segments[i + parts.length];
      if (dir === '.claude' && next !== undefined && CLAUDE_DIR_EXCEPTIONS.includes(next)) continue;
      // Auto memory: `.claude/projects/<project>/memory/…` is the model's own notes (Claude Code lets it write there).
      if (dir === '.claude' && next === 'projects' && segments[i + 3] === 'memory' && segments.length > i + 4) continue;
      return `${dir}/ is a protected folder`;
    }
  }
  return undefined;
}
