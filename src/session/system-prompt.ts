/**
 * The system prompt: short and ours. Environment facts (cwd, platform, date, git) and the CLAUDE.md
 * memory files. `--system-prompt` replaces our base text; `--append-system-prompt` adds to it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isoTime } from '../base/clock.js';
import type { SystemBlock } from '../base/events.js';
import { gitStatusSync, repositoryRoot, statusWithout, type GitStatus } from '../base/git-status.js';

const INTRO = `You are wicket, a coding agent working in the user's terminal on the project in the working directory.
You act only through the tools you are given; every call is checked against the user's permission rules before it runs.`;

const CODING = `- Read a file before you edit it. Prefer Edit for changes to existing files; use Write for new files.
- Keep changes minimal and focused on what the user asked. Match the project's style.
- When a call is refused, read the reason and adapt: do not retry the same refused call.
- Run the project's tests or build when it helps to check your work.
- Answer concisely. Refer to code as path:line.`;

const BASE = `${INTRO}\n${CODING}`;

export interface PromptOptions {
  cwd: string;
  projectRoot: string;
  homeDir: string;
  configDir: string;
  platform?: string;
  now?: Date;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** Skip CLAUDE.md discovery (--bare). */
  noMemory?: boolean;
  /** Git facts found already (null: not a repository); asked from git when absent. */
  git?: GitStatus | null;
  /** Paths the Read deny rules hide: left out of the git status. */
  hidden?: (absPath: string) => boolean;
  /** Settings `language`: the language to answer the person in. */
  language?: string;
  /** What commits and pull requests end with (attribution.ts); empty: nothing said. */
  attribution?: string;
  /** The output style's text, last in the prompt; without keepCodingInstructions it replaces the coding instructions. */
  outputStyle?: { prompt: string; keepCodingInstructions: boolean };
}

export function buildSystemPrompt(opts: PromptOptions): SystemBlock[] {
  const style = opts.outputStyle?.prompt ? opts.outputStyle : undefined;
  const base = style && !style.keepCodingInstructions ? INTRO : BASE;
  const parts = [opts.systemPrompt ?? base, environmentSection(opts)];
  const memory = opts.noMemory ? '' : memorySection(opts);
  if (memory) parts.push(memory);
  if (opts.language?.trim())
    parts.push(`Always respond to the user in ${opts.language.trim()}. Code, commands, file contents and identifiers stay as they are.`);
  if (opts.attribution) parts.push(opts.attribution);
  if (opts.appendSystemPrompt) parts.push(opts.appendSystemPrompt);
  if (style) parts.push(style.prompt);
  return [{ type: 'text', text: parts.join('\n\n') }];
}

function environmentSection(opts: PromptOptions): string {
  const now = opts.now ?? new Date();
  const lines = ['<env>', `Working directory: ${opts.cwd}`, `Platform: ${opts.platform ?? process.platform}`, `Today's date: ${isoTime(now).slice(0, 10)}`];
  const git = opts.git === undefined ? gitStatusSync(opts.cwd) : opts.git;
  lines.push(`Is a git repository: ${git ? 'yes' : 'no'}`);
  if (git) {
    lines.push(`Git branch: ${git.branch}`);
    const status = opts.hidden ? statusWithout(git.status, opts.cwd, opts.hidden) : git.status;
    lines.push(`Git status:\n${status || '(clean)'}`);
  }
  lines.push('</env>');
  return lines.join('\n');
}

/** The memory files in load order: user, then project root → cwd (CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md). */
export function memoryFiles(opts: Pick<PromptOptions, 'cwd' | 'projectRoot' | 'configDir'>): string[] {
  const files = [path.join(opts.configDir, 'CLAUDE.md')];
  const root = findRoot(opts.cwd);
  const dirs: string[] = [];
  for (let d = opts.cwd; ; d = path.dirname(d)) {
    dirs.unshift(d);
    if (d === root || path.dirname(d) === d) break;
  }
  for (const d of dirs) {
    files.push(path.join(d, 'CLAUDE.md'), path.join(d, '.claude', 'CLAUDE.md'), path.join(d, 'CLAUDE.local.md'));
  }
  return [...new Set(files)].filter((f) => existsSync(f));
}

function findRoot(cwd: string): string {
  return repositoryRoot(cwd) ?? cwd;
}

function memorySection(opts: PromptOptions): string {
  const chunks: string[] = [];
  for (const file of memoryFiles(opts)) {
    try {
      const text = readFileSync(file, 'utf8')
        .replace(/<!--[\s\S]*?-->/g, '')
        .trim();
      if (text) chunks.push(`Contents of ${file}:\n\n${text.slice(0, 40_000)}`);
    } catch {
      // unreadable memory file: skip
    }
  }
  if (!chunks.length) return '';
  return `<memory>\nInstructions from the user's CLAUDE.md files. Follow them; they override defaults.\n\n${chunks.join('\n\n')}\n</memory>`;
}
