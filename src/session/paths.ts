/**
 * Where sessions live, as Claude Code lays them out: `<config dir>/projects/<project slug>/<id>.jsonl`
 * (the config dir is `$CLAUDE_CONFIG_DIR` or `~/.claude`). The slug is Claude Code's: every character
 * that is not a letter or a digit becomes `-`; a slug longer than 200 characters is cut there and
 * followed by `-` and a hash of the whole path. Sessions an older wicket wrote stay readable under
 * `<wicket home>/sessions/<slug>/`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '../base/git-status.js';

const MAX_SLUG = 200;

/** Claude Code's 32-bit string hash (`h = h * 31 + c`), written in base 36. */
function pathHash(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = ((h << 5) - h + text.charCodeAt(i)) | 0;
  return Math.abs(h).toString(36);
}

/** A folder name for a project path, as Claude Code makes it. */
export function projectSlug(cwd: string): string {
  const slug = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  return slug.length > MAX_SLUG ? `${slug.slice(0, MAX_SLUG)}-${pathHash(cwd)}` : slug;
}

/** `<config dir>/projects`: one folder per project. */
export function projectsRoot(configDir: string): string {
  return path.join(configDir, 'projects');
}

/** The folder of a project's session transcripts. */
export function projectSessionsDir(configDir: string, cwd: string): string {
  return path.join(projectsRoot(configDir), projectSlug(cwd));
}

/** A session's transcript file. */
export function transcriptFile(configDir: string, cwd: string, sessionId: string): string {
  return path.join(projectSessionsDir(configDir, cwd), `${sessionId}.jsonl`);
}

/** Where an older wicket kept its transcripts: `<wicket home>/sessions/<slug>/`. */
export function legacySessionsRoot(wicketHome: string): string {
  return path.join(wicketHome, 'sessions');
}

export function legacySessionsDir(wicketHome: string, cwd: string): string {
  return path.join(legacySessionsRoot(wicketHome), projectSlug(cwd));
}

/** The session's file checkpoints (core/file-history.ts): `<wicket home>/file-history/<id>/`. */
export function fileHistoryDir(wicketHome: string, sessionId: string): string {
  return path.join(wicketHome, 'file-history', sessionId.replace(/[^\w.-]/g, '_') || 'default');
}

/**
 * The branch checked out where `cwd` is (read from `.git/HEAD`, no git process): its name, or `HEAD`
 * when detached (as `git rev-parse --abbrev-ref HEAD` says); undefined outside a repository.
 */
export function currentBranch(cwd: string): string | undefined {
  const root = repositoryRoot(cwd);
  if (!root) return undefined;
  try {
    let gitDir = path.join(root, '.git');
    const dotGit = readFileSync(gitDir, 'utf8').trim();
    if (dotGit.startsWith('gitdir:')) gitDir = path.resolve(root, dotGit.slice(7).trim());
    return headName(readFileSync(path.join(gitDir, 'HEAD'), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EISDIR') return undefined;
    try {
      return headName(readFileSync(path.join(root, '.git', 'HEAD'), 'utf8'));
    } catch {
      return undefined;
    }
  }
}

function headName(head: string): string | undefined {
  const text = head.trim();
  if (text.startsWith('ref: refs/heads/')) return text.slice('ref: refs/heads/'.length);
  return /^[0-9a-f]{40,64}$/.test(text) ? 'HEAD' : undefined;
}
