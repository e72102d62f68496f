/**
 * A `.claude/rules/` folder, as Claude Code walks it: every `.md` file, in subfolders too, in the
 * folder's own order (not sorted), links followed (a linked folder is walked once). A rule with
 * `paths:` front matter is conditional: it is given only once a matching file is touched.
 */
import { type Dirent, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { readInstructionFile, type ReadContext } from './read-file.js';
import type { InstructionFile, MemoryType } from './types.js';

export interface RulesHow {
  /** true: the rules with `paths:` only; false: the others (and what they import). */
  conditional: boolean;
  /** Its files may import from outside the working directory. */
  external?: boolean;
  visited?: Set<string>;
}

export function readRulesDir(dir: string, type: MemoryType, ctx: ReadContext, how: RulesHow): InstructionFile[] {
  const visited = how.visited ?? new Set<string>();
  if (visited.has(dir)) return [];
  const real = realOf(dir);
  if (!real || visited.has(real)) return [];
  visited.add(dir).add(real);
  const out: InstructionFile[] = [];
  for (const entry of entriesOf(real)) {
    const found = path.join(dir, entry.name);
    // In a real folder, only a link's name differs from its real path.
    const target = entry.isSymbolicLink() ? realOf(path.join(real, entry.name)) : path.join(real, entry.name);
    if (!target) continue;
    if (found !== target && ctx.excluded(found, type)) continue;
    const kind = entry.isSymbolicLink() ? kindOf(target) : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : undefined;
    if (kind === 'dir') out.push(...readRulesDir(target, type, ctx, { ...how, visited }));
    else if (kind === 'file' && entry.name.endsWith('.md')) {
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
