/**
 * `AGENTS.md`, as Claude Code 2.1 reads it (its built-in agents-md part). By default a project with
 * no instruction file of its own — no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` in any
 * folder from the root down to the working directory — gets its `AGENTS.md` and `.claude/AGENTS.md`
 * files instead, read exactly as a project `CLAUDE.md` (imports and all) and placed where a project
 * file of that folder stands. The setting `pluginConfigs["agents-md@builtin"].options.instructionFiles`
 * chooses otherwise: `claude-md` (never), `claude-md-and-agents-md` (beside CLAUDE.md; a file already
 * loaded, by path or by content, is not given twice), `managed-only` (only the managed files and
 * auto memory). A subfolder's AGENTS.md comes when the model reads a file under it (agents-md-read.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readInstructionFile, type ReadContext } from './read-file.js';
import type { InstructionFile } from './types.js';

export type AgentsMode = 'claude-md' | 'claude-md-or-agents-md' | 'claude-md-and-agents-md' | 'managed-only';

const MODES: readonly AgentsMode[] = ['claude-md', 'claude-md-or-agents-md', 'claude-md-and-agents-md', 'managed-only'];
export const DEFAULT_AGENTS_MODE: AgentsMode = 'claude-md-or-agents-md';
/** The option's earlier names. */
const OLD_NAMES: Record<string, AgentsMode> = {
  none: 'managed-only',
  claude: 'claude-md',
  'agents-fallback': 'claude-md-or-agents-md',
  both: 'claude-md-and-agents-md',
};
export const AGENTS_FILES = ['AGENTS.md', path.join('.claude', 'AGENTS.md')];
export const CLAUDE_FILES = ['CLAUDE.md', path.join('.claude', 'CLAUDE.md'), 'CLAUDE.local.md'];

/** The mode the settings choose (an unknown value reads as the default). */
export function agentsModeOf(settings: Record<string, unknown>): AgentsMode {
  const configs = settings.pluginConfigs as Record<string, { options?: Record<string, unknown> }> | undefined;
  const options = configs && typeof configs === 'object' ? configs['agents-md@builtin']?.options : undefined;
  const chosen = options?.instructionFiles;
  const mode = MODES.find((m) => m === chosen) ?? DEFAULT_AGENTS_MODE;
  const old = typeof options?.projectInstructions === 'string' ? OLD_NAMES[options.projectInstructions] : undefined;
  return mode === DEFAULT_AGENTS_MODE && old ? old : mode;
}

export function addAgentsFiles(files: InstructionFile[], o: { ctx: ReadContext; dirs: readonly string[]; agentsMode?: AgentsMode }): InstructionFile[] {
  const mode = o.agentsMode ?? DEFAULT_AGENTS_MODE;
  if (mode === 'claude-md') return files;
  if (mode === 'managed-only') return files.filter((f) => f.type === 'Managed' || f.type === 'AutoMem');
  const fallback = mode === 'claude-md-or-agents-md';
  if (fallback && files.some(isOwnClaudeFile)) return files;
  const paths = new Set(files.map((f) => f.path));
  const contents = new Set(files.map((f) => f.content.trim()).filter(Boolean));
  let out = files;
  for (const dir of o.dirs) {
    if (fallback && CLAUDE_FILES.some((name) => existsSync(path.join(dir, name)))) continue;
    const group = AGENTS_FILES.flatMap((name) => readInstructionFile(path.join(dir, name), 'Project', o.ctx))
      .filter((f) => !paths.has(f.path) && !(f.content.trim() && contents.has(f.content.trim())))
      .map((f) => ({ ...f, agents: true }));
    if (!group.length) continue;
    const at = placeFor(out, dir);
    out = [...out.slice(0, at), ...group, ...out.slice(at)];
  }
  return out;
}

/** A project's own CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md (not a rule, not an import). */
function isOwnClaudeFile(f: InstructionFile): boolean {
  return (f.type === 'Project' || f.type === 'Local') && !f.rule && !f.parent && !f.agents && CLAUDE_FILES.some((name) => f.path.endsWith(path.sep + name));
}

/**
 * Where a folder's files go: before the first project file of a deeper folder; else after the last
 * project file; else before auto memory; else at the end.
 */
function placeFor(files: readonly InstructionFile[], dir: string): number {
  const projectish = (f: InstructionFile) => f.type === 'Project' || f.type === 'Local';
  const deeper = files.findIndex((f) => projectish(f) && folderOf(rootOf(f, files)).startsWith(dir + path.sep));
  if (deeper !== -1) return deeper;
  const last = files.findLastIndex(projectish);
  if (last !== -1) return last + 1;
  const memory = files.findIndex((f) => f.type === 'AutoMem');
  return memory === -1 ? files.length : memory;
}

/** The file an import chain starts from. */
function rootOf(f: InstructionFile, files: readonly InstructionFile[]): string {
  let at = f;
  for (let i = 0; at.parent && i < files.length; i++) at = files.find((g) => g.path === at.parent) ?? { ...at, parent: undefined };
  return at.path;
}

/** The project folder a file belongs to: the one holding its `.claude/` folder, else its own. */
function folderOf(file: string): string {
  const marker = `${path.sep}.claude${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at === -1 ? path.dirname(file) : file.slice(0, at);
}
