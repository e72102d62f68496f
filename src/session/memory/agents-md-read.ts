/**
 * A subfolder's AGENTS.md, given when the model reads a file under it, as Claude Code 2.1's agents-md
 * part does (its Read hook and @-mentions; an edit or a write brings none): the `AGENTS.md` and
 * `.claude/AGENTS.md` of each folder between the working directory (left out: its files come at the
 * start) and the file's folder, from the top, read as project instructions with their imports. In
 * the default mode (`claude-md-or-agents-md`) none comes in a project that has a CLAUDE.md,
 * `.claude/CLAUDE.md` or CLAUDE.local.md in the working directory or above, nor from a folder that
 * has one of its own; `claude-md-and-agents-md` gives them beside CLAUDE.md; the other modes never.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AGENTS_FILES, CLAUDE_FILES, DEFAULT_AGENTS_MODE, type AgentsMode } from './agents-md.js';
import { walkDirs } from './discover.js';
import { foldersBetween, inside, type TouchOptions } from './nested.js';
import { readContext, readInstructionFile } from './read-file.js';
import type { InstructionFile, SkippedFile } from './types.js';

const hasClaudeFile = (dir: string) => CLAUDE_FILES.some((name) => existsSync(path.join(dir, name)));

/** The AGENTS.md files reading `file` brings, in order (the file itself left out); `skipped` gets those left out. */
export function agentsForRead(file: string, o: TouchOptions & { agentsMode?: AgentsMode }, skipped: SkippedFile[] = []): InstructionFile[] {
  const mode = o.agentsMode ?? DEFAULT_AGENTS_MODE;
  const sources = o.sources ?? { user: true, project: true, local: true };
  if (mode === 'claude-md' || mode === 'managed-only' || !sources.project) return [];
  const fallback = mode === 'claude-md-or-agents-md';
  if (fallback && walkDirs(o.cwd).some(hasClaudeFile)) return [];
  const target = inside(file, o.cwd);
  const ctx = readContext(o, false, skipped);
  const out: InstructionFile[] = [];
  for (const dir of foldersBetween(o.cwd, target)) {
    if (fallback && hasClaudeFile(dir)) continue;
    for (const name of AGENTS_FILES) {
      const at = path.join(dir, name);
      if (at === target) continue;
      out.push(...readInstructionFile(at, 'Project', ctx, { external: false }).map((f) => ({ ...f, agents: true })));
    }
  }
  return out;
}
