/**
 * A `.claude/rules/` folder, as Claude Code walks it: every `.md` file, in subfolders too, in the
 * folder's own order (not sorted), links followed (a linked folder is walked once). A rule with
 * `paths:` front matter is conditional: it is given only once a matching file is touched. A project
 * rule reached through a link (the rule, a folder of rules, or the rules folder itself) whose real
 * path is outside the working directory counts as an import from outside it: left out unless the
 * person approved those (and never on a touch), as in Claude Code.
 */
import { type Dirent, lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../base/paths.js';
import { outsideReason, readInstructionFile, type ReadContext } from './read-file.js';
import type { InstructionFile, MemoryType } from './types.js';

export interface RulesHow {
  /** true: the rules with `paths:` only; false: the others (and what they import). */
  conditional: boolean;
  /** Its files may import from outside the working directory. */
  external?: boolean;
  visited?: Set<string>;
  /** The walk went through a link to get here. */
  linked?: boolean;
}

export function readRulesDir(dir: string, type: MemoryType, ctx: ReadContext, how: RulesHow): InstructionFile[] {
  const visited = how.visited ?? new Set<string>();
  if (visited.has(dir)) return [];
  const real = realOf(dir);
  if (!real || visited.has(real)) return [];
  visited.add(dir).add(real);
  const dirLinked = how.linked ?? isLink(dir);
  const out: InstructionFile[] = [];
  for (const entry of entriesOf(real)) {
    const found = path.join(dir, entry.name);
    // In a real folder, only a link's name differs from its real path.
    const target = entry.isSymbolicLink() ? realOf(path.join(real, entry.name)) : path.join(real, entry.name);
    if (!target) continue;
    if (found !== target && ctx.excluded(found, type)) continue;
    const kind = entry.isSymbolicLink() ? kindOf(target) : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : undefined;
    const linked = dirLinked || entry.isSymbolicLink();
    if (kind === 'dir') out.push(...readRulesDir(target, type, ctx, { ...how, visited, linked }));
    else if (kind === 'file' && entry.name.endsWith('.md')) {
      if (linked && linkedOutside(target, type, ctx, how)) {
        ctx.skipped.push({ path: target, reason: `a rule linked from ${found}, ${outsideReason(ctx)}`, external: true });
        continue;
      }
      const files = readInstructionFile(target, type, ctx, how.external === undefined ? {} : { external: how.external });
      if (files[0]) files[0].rule = true;
      out.push(...files.filter((f) => (how.conditional ? f.globs : !f.globs)));
    }
  }
  return out;
}

/** The folder's entries in the order the file system gives them (readdir would sort them). */
function entriesOf(dir: string): Dirent[] {
  const out: Dirent[] = [];
  try {
    // asked for here: naming fs.opendirSync at load time loads Node's folder-handle module at every start
    const handle = process.getBuiltinModule('node:fs').opendirSync(dir);
    try {
      for (let e = handle.readSync(); e; e = handle.readSync()) out.push(e);
    } finally {
      handle.closeSync();
    }
  } catch {
    // missing, not a folder, or unreadable: no rules here
  }
  return out;
}

/** A project or local rule whose real path is outside the working directory, with such files not allowed. */
function linkedOutside(target: string, type: MemoryType, ctx: ReadContext, how: RulesHow): boolean {
  if (type !== 'Project' && type !== 'Local') return false;
  if (how.external ?? ctx.externalApproved) return false;
  return !isInside(target, ctx.cwd) && !isInside(target, realOf(ctx.cwd) ?? ctx.cwd);
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function kindOf(p: string): 'dir' | 'file' | undefined {
  try {
    const st = statSync(p);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

function realOf(p: string): string | undefined {
  if (!statSync(p, { throwIfNoEntry: false })) return undefined;
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}
