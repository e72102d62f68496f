/**
 * An agent's persistent memory (frontmatter `memory`), where Claude Code keeps it:
 *   user     `<config dir>/agent-memory/<agent>/`          (CLAUDE_CODE_MEMORY_BASE_DIR replaces the config dir)
 *   project  `<project>/.claude/agent-memory/<agent>/`
 *   local    `<project>/.claude/agent-memory-local/<agent>/`
 * The folder is made when the agent first starts. Its prompt says where the folder is and holds the
 * start of MEMORY.md (200 lines or 25 KB); Read, Write and Edit are allowed there for its run.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRule, type ParsedRule } from '../../base/rule-parse.js';
import type { MemoryScope } from './frontmatter.js';

const MAX_LINES = 200;
const MAX_BYTES = 25_000;

/** The tools an agent with memory always has, whatever its `tools` list says. */
export const MEMORY_TOOLS = ['Read', 'Write', 'Edit'];

export interface MemoryRoots {
  /** The project folder the agent works for (its worktree, when isolated). */
  projectDir: string;
  /** Claude Code's per-user folder (`~/.claude` or CLAUDE_CONFIG_DIR). */
  configDir: string;
  env: Record<string, string | undefined>;
}

export function agentMemoryDir(scope: MemoryScope, agent: string, roots: MemoryRoots): string {
  const name = agent.replace(/[:/\\]/g, '-');
  if (scope === 'user') return path.join(roots.env.CLAUDE_CODE_MEMORY_BASE_DIR || roots.configDir, 'agent-memory', name);
  return path.join(roots.projectDir, '.claude', scope === 'project' ? 'agent-memory' : 'agent-memory-local', name);
}

/** Makes the folder if it is not there yet; a folder that cannot be made is a reason, for a warning. */
export function ensureMemoryDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    return undefined;
  } catch (err) {
    return `its memory folder ${dir} could not be made: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
}

/** Read, Write and Edit allowed in the folder. */
export function memoryRules(dir: string): ParsedRule[] {
  const pattern = `/${dir.split(path.sep).join('/')}/**`;
  return [parseRule(`Read(${pattern})`, 'session'), parseRule(`Edit(${pattern})`, 'session')];
}

const SCOPE_NOTE: Record<MemoryScope, string> = {
  user: 'user scope: this agent keeps it across all your projects',
  project: "project scope: it lives in the project's .claude folder and is shared through version control",
  local: 'local scope: it belongs to this project and is not checked into version control',
};

/** The part of the agent's system prompt about its memory. */
export function memoryPrompt(dir: string, scope: MemoryScope): string {
  const index = path.join(dir, 'MEMORY.md');
  const head = memoryHead(index);
  return `# Persistent agent memory

You have a persistent memory folder: ${dir}
It is kept between your runs (${SCOPE_NOTE[scope]}). Use it to build up knowledge that makes later runs better: the code's patterns and conventions, where things are, decisions and their reasons, problems you met and how they were solved.
- ${index} is your index. Its start is given to you below every time you begin, so keep it short: one line per topic, with the details in other files of the folder that it points to.
- Read, Write and Edit work in that folder without asking.
- Consult your memory before you start; before you finish, save what you learned that will still be true and useful next time. Do not save secrets, or what only matters for the current task.

## MEMORY.md
${head}`;
}

function memoryHead(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return '(empty: MEMORY.md does not exist yet)';
  }
  if (!text.trim()) return '(empty)';
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  let shown = lines.slice(0, MAX_LINES).join('\n');
  if (Buffer.byteLength(shown) > MAX_BYTES)
    shown = Buffer.from(shown)
      .subarray(0, MAX_BYTES)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
  if (shown.length === lines.join('\n').length) return shown;
  return `${shown}\n\n(MEMORY.md goes on: only its first ${MAX_LINES} lines or ${MAX_BYTES / 1000} KB are shown. Move details into other files and shorten it.)`;
}
