/**
 * What touching a file brings, as Claude Code gives it when the model reads, edits or writes a file
 * (each file once per conversation; the caller leaves out what was already given):
 *   1. managed and user rules whose `paths:` match the file (relative to the working directory);
 *   2. for each folder between the working directory (left out) and the file's folder, from the top:
 *      its `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md` (with their imports, none from
 *      outside the working directory), then its `.claude/rules/`: the rules without `paths:`, then
 *      those whose `paths:` match (relative to that folder);
 *   3. for the working directory and each folder above it, from the root's side: the rules of its
 *      `.claude/rules/` whose `paths:` match (relative to that folder).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../base/paths.js';
import { walkDirs } from './discover.js';
import { pathsCover } from './paths-globs.js';
import { readContext, readInstructionFile } from './read-file.js';
import { readRulesDir } from './rules-dir.js';
import type { InstructionFile, SkippedFile } from './types.js';

export interface TouchOptions {
  cwd: string;
  home: string;
  configDir: string;
  managedDir: string;
  excludes?: unknown;
  deniedBy: (file: string) => string | undefined;
  sources?: { user: boolean; project: boolean; local: boolean };
  /** Where what lexing a file gave is kept across starts (lexed-cache.ts); none: lexed each time. */
  lexCacheDir?: string;
}

/** The files a touch of `file` brings, in order; `skipped` gets those left out (a Read deny rule…). */
export function filesForTouch(file: string, o: TouchOptions, skipped: SkippedFile[] = []): InstructionFile[] {
  const sources = o.sources ?? { user: true, project: true, local: true };
  const ctx = readContext(o, false, skipped);
  const target = inside(file, o.cwd);
  const matching = (files: InstructionFile[], base: string) => files.filter((f) => f.globs && pathsCover(f.globs, target, base));
  const out: InstructionFile[] = [];
  out.push(...matching(readRulesDir(path.join(o.managedDir, '.claude', 'rules'), 'Managed', ctx, { conditional: true }), o.cwd));
  if (sources.user) out.push(...matching(readRulesDir(path.join(o.configDir, 'rules'), 'User', ctx, { conditional: true, external: true }), o.cwd));
  for (const dir of foldersBetween(o.cwd, target)) {
    if (sources.project) {
      out.push(...readInstructionFile(path.join(dir, 'CLAUDE.md'), 'Project', ctx, { external: false }));
      out.push(...readInstructionFile(path.join(dir, '.claude', 'CLAUDE.md'), 'Project', ctx, { external: false }));
    }
    if (sources.local) out.push(...readInstructionFile(path.join(dir, 'CLAUDE.local.md'), 'Local', ctx, { external: false }));
    if (!sources.project) continue;
    const rules = path.join(dir, '.claude', 'rules');
    const always = { ...ctx, processed: new Set(ctx.processed) };
    out.push(...readRulesDir(rules, 'Project', always, { conditional: false, external: false }));
    out.push(...matching(readRulesDir(rules, 'Project', ctx, { conditional: true, external: false }), dir));
    for (const p of always.processed) ctx.processed.add(p);
  }
  if (sources.project)
    for (const dir of walkDirs(o.cwd)) out.push(...matching(readRulesDir(path.join(dir, '.claude', 'rules'), 'Project', ctx, { conditional: true }), dir));
  return out;
}

/** The file as a path inside `cwd` when it is one through its links; else as given. */
export function inside(file: string, cwd: string): string {
  const abs = path.resolve(cwd, file);
  if (isInside(abs, cwd)) return abs;
  try {
    const real = realpathSync.native(abs);
    return isInside(real, cwd) ? real : abs;
  } catch {
    return abs;
  }
}

/** The folders strictly inside `cwd` that lead down to the file's folder, from the top. */
export function foldersBetween(cwd: string, file: string): string[] {
  const out: string[] = [];
  if (!isInside(file, cwd)) return out;
  for (let d = path.dirname(file); d !== cwd && isInside(d, cwd); d = path.dirname(d)) out.unshift(d);
  return out;
}

/** The rules with `paths:` that wait for a touch: the managed, the user's and those of each folder down to `cwd`. */
export function waitingRules(o: TouchOptions): InstructionFile[] {
  const sources = o.sources ?? { user: true, project: true, local: true };
  const ctx = readContext(o, false);
  const dirs = [
    { dir: path.join(o.managedDir, '.claude', 'rules'), type: 'Managed' as const, on: true },
    { dir: path.join(o.configDir, 'rules'), type: 'User' as const, on: sources.user },
    ...walkDirs(o.cwd).map((d) => ({ dir: path.join(d, '.claude', 'rules'), type: 'Project' as const, on: sources.project })),
  ];
  return dirs.flatMap((d) => (d.on ? readRulesDir(d.dir, d.type, ctx, { conditional: true }) : []));
}
