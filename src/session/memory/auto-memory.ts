/**
 * Auto memory, as Claude Code keeps it: a folder per project (by default
 * `<config dir>/projects/<slug of the repository's main root>/memory/`, shared by its worktrees and
 * subfolders; settings `autoMemoryDirectory` moves it, from any settings file but the project's own)
 * whose `MEMORY.md` index is given to the model at the start of each conversation, cut to its first
 * 200 lines and 25,000 characters with a warning that says what was cut. The model keeps the folder
 * itself with the file tools. Off with `autoMemoryEnabled: false` or CLAUDE_CODE_DISABLE_AUTO_MEMORY=1
 * (which wins over settings; `=0` turns it on whatever settings say).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { splitFrontMatter, stripCommentBlocks } from './markdown.js';
import type { InstructionFile } from './types.js';

export const MEMORY_INDEX = 'MEMORY.md';
const MAX_LINES = 200;
const MAX_CHARS = 25_000;

/** Whether auto memory is on: the environment variable first, then settings `autoMemoryEnabled`, on by default. */
export function autoMemoryEnabled(env: Record<string, string | undefined>, settings: Record<string, unknown>): boolean {
  const raw = env.CLAUDE_CODE_DISABLE_AUTO_MEMORY?.trim().toLowerCase();
  if (raw && ['1', 'true', 'yes', 'on'].includes(raw)) return false;
  if (raw && ['0', 'false', 'no', 'off'].includes(raw)) return true;
  return settings.autoMemoryEnabled !== false;
}

export interface MemoryDirOptions {
  cwd: string;
  home: string;
  configDir: string;
  /** `autoMemoryDirectory` from the settings that may set it (not the project's own file). */
  directory?: string;
  /** The folder name Claude Code gives a project path under `projects/`. */
  slug: (projectPath: string) => string;
}

/** The project's auto memory folder (absolute), or undefined when `autoMemoryDirectory` cannot be used. */
export function autoMemoryDir(o: MemoryDirOptions): string | undefined {
  if (o.directory !== undefined) {
    const dir = o.directory.trim();
    const full = dir === '~' ? o.home : dir.startsWith('~/') ? path.join(o.home, dir.slice(2)) : dir;
    if (!path.isAbsolute(full) || path.resolve(full) === path.parse(full).root || full.includes('\0')) return undefined;
    return path.resolve(full);
  }
  return path.join(o.configDir, 'projects', o.slug(mainRepositoryRoot(o.cwd) ?? o.cwd), 'memory');
}

/**
 * The main working tree of the repository `cwd` is in: for a linked worktree (`.git` is a file
 * naming `…/.git/worktrees/<name>`), the folder of the repository's own `.git`. Read from the files,
 * without running git. Undefined outside a repository.
 */
export function mainRepositoryRoot(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    if (existsSync(dotGit)) return commonRoot(dotGit) ?? dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function commonRoot(dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return undefined;
    const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (!gitdir) return undefined;
    const worktreeGit = path.resolve(path.dirname(dotGit), gitdir);
    const common = readFileSync(path.join(worktreeGit, 'commondir'), 'utf8').trim();
    const commonDir = path.resolve(worktreeGit, common);
    return path.basename(commonDir) === '.git' ? path.dirname(commonDir) : undefined;
  } catch {
    return undefined;
  }
}

/** `MEMORY.md` of the folder as the model gets it, or undefined when there is none (or it is empty). */
export function readMemoryIndex(dir: string, deniedBy: (file: string) => string | undefined): InstructionFile | undefined {
  const file = path.join(dir, MEMORY_INDEX);
  if (deniedBy(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const content = withoutControlCharacters(truncateIndex(stripCommentBlocks(splitFrontMatter(text).content).content));
  return content.trim() ? { path: file, type: 'AutoMem', content } : undefined;
}

/** The index cut to 200 lines and 25,000 characters, with Claude Code's warning when it was cut. */
export function truncateIndex(text: string): string {
  const all = text.trim();
  const lineCount = count(all, '\n') + 1;
  const overLines = lineCount > MAX_LINES;
  const overChars = all.length > MAX_CHARS;
  if (!overLines && !overChars) return all;
  let kept = overLines ? all.split('\n').slice(0, MAX_LINES).join('\n') : all;
  if (kept.length > MAX_CHARS) {
    const at = kept.lastIndexOf('\n', MAX_CHARS);
    kept = kept.slice(0, at > 0 ? at : MAX_CHARS);
  }
  const keptLines = all[kept.length] === '\n' ? count(kept, '\n') + 1 : 0;
  const nextStart = kept.length + 1;
  const nextEnd = all.indexOf('\n', nextStart);
  const next = all.slice(nextStart, nextEnd < 0 ? undefined : nextEnd).trim();
  const what =
    keptLines === 0
      ? `everything after the first ${kept.length} characters of line 1 was cut off`
      : `${lineCount - keptLines} of ${lineCount} lines were cut off, starting at line ${keptLines + 1}${next ? ` ("${ellipsis(next, 80)}")` : ''}`;
  const size =
    overChars && !overLines
      ? `${sizeText(all.length)} (limit: ${sizeText(MAX_CHARS)}) \u2014 index entries are too long`
      : overLines && !overChars
        ? `${lineCount} lines (limit: ${MAX_LINES})`
        : `${lineCount} lines and ${sizeText(all.length)}`;
  const warning = `${MEMORY_INDEX} is ${size}. Only part of it was loaded: ${what}. Keep index entries to one line under ~200 chars; move detail into topic files.`;
  return `${kept}\n\n> WARNING: ${warning}`;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

function ellipsis(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}\u2026`;
}

function sizeText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)}KB`;
  return `${(n / 1024 / 1024).toFixed(1)}MB`;
}

/** Control and invisible format characters taken out (tabs and line ends stay), line ends made `\n`. */
export function withoutControlCharacters(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/(?!\u200c|\u200d|\ufe0e|\ufe0f)[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{DI}]/gu, '');
}
