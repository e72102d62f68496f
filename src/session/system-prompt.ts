/**
 * The system prompt: short and ours. Environment facts (cwd, platform, date, git) and where auto
 * memory is kept. `--system-prompt` replaces our base text; `--append-system-prompt` adds to it.
 * The instruction files (CLAUDE.md and the rest) are not here: they come at the head of the first
 * user message, as Claude Code sends them (session/memory/).
 */
import { isoTime } from '../base/clock.js';
import type { SystemBlock } from '../base/events.js';
import { gitStatusSync, statusWithout, type GitStatus } from '../base/git-status.js';

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
  /** The auto memory folder, when auto memory is on: the prompt says how to keep it. */
  autoMemoryDir?: string;
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
  if (opts.autoMemoryDir) parts.push(autoMemorySection(opts.autoMemoryDir));
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

/** How to keep the auto memory folder (the start of its MEMORY.md comes with the instruction files). */
function autoMemorySection(dir: string): string {
  return `# Memory
You have a persistent memory folder for this project: ${dir}
It already exists and is kept between conversations. Its index, MEMORY.md, comes to you at the start of each conversation (its first 200 lines), with the instruction files.
- Save what will still matter in later conversations and that the code and its history do not say: who the user is and how they like to work, corrections and confirmed approaches (with the reason), goals and constraints of the work, pointers to outside resources.
- One memory per file, a short Markdown file with front matter (\`name\`, \`description\`, and \`type\` under \`metadata\`: user, feedback, project or reference, as Claude Code writes them); then one line for it in MEMORY.md: \`- [Title](file.md) — what it is for\`. MEMORY.md holds only these lines.
- Update or delete a memory that turns out wrong rather than adding another. Do not save secrets, or what only matters for the current task.
- Read, Write and Edit work in that folder without asking.`;
}
