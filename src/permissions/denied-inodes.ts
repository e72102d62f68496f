/**
 * Hard links. A second name for a denied file, made where no rule reaches (`ln secret/key.txt
 * /tmp/k`), is the same file, but no path rule can tell. It is recognised by device and inode:
 * a file with more than one link is denied when it is one of the multiply-linked files under the
 * folders that anchored deny rules name (`./secret/**` → `<project>/secret`, `~/.ssh/**` →
 * `~/.ssh`), and the rule covers that file.
 *
 * Bounds, so this stays cheap: the folders are walked only when a file with several links is
 * checked, at most MAX_ENTRIES entries per folder, without following links, and the result is kept
 * for CACHE_MS. Loose rules (`.env`, `*.pem` at any depth) name no folder, so a hard link to a file
 * that only such a rule covers is not recognised, and neither is one to a file past the walk's bound.
 */
import { readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { PermissionContext } from '../base/tool.js';
import { compilePathRule, ruleLiteralRoots } from './path-pattern.js';
import type { ParsedRule } from '../base/rule-parse.js';

type AnchorContext = Pick<PermissionContext, 'cwd' | 'projectRoot' | 'homeDir'>;

const MAX_ENTRIES = 20_000;
const CACHE_MS = 1_000;

/** `dev:ino` → the multiply-linked files with that identity, under one folder. */
type InodeIndex = Map<string, string[]>;

const indexCache = new Map<string, { at: number; index: InodeIndex }>();

const key = (s: Pick<Stats, 'dev' | 'ino'>) => `${s.dev}:${s.ino}`;

/** The rule of `rules` (deny rules) that covers another name of the file at `absPath`, if any. */
export function deniedByInode(absPath: string, rules: readonly ParsedRule[], ctx: AnchorContext): ParsedRule | undefined {
  const target = existing(absPath);
  return target ? deniedInodeRule(target, rules, ctx) : undefined;
}

/** The file's stat; undefined when there is none, and for a name no file can have (too long, a null byte). */
function existing(absPath: string): Stats | undefined {
  if (absPath.includes('\0')) return undefined;
  try {
    return statSync(absPath, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return undefined;
    throw err;
  }
}

/** The same, for a file whose stat (with links followed) the caller already has. */
export function deniedInodeRule(target: Stats, rules: readonly ParsedRule[], ctx: AnchorContext): ParsedRule | undefined {
  if (!target.isFile() || target.nlink < 2) return undefined;
  const id = key(target);
  for (const rule of rules) {
    const matches = compilePathRule(rule, 'deny', ctx);
    for (const root of ruleLiteralRoots(rule, ctx)) {
      const names = inodeIndex(root).get(id);
      if (names?.some((n) => matches(n))) return rule;
    }
  }
  return undefined;
}

function inodeIndex(root: string): InodeIndex {
  const now = Date.now();
  const cached = indexCache.get(root);
  if (cached && now - cached.at < CACHE_MS) return cached.index;
  const index = buildIndex(root);
  indexCache.set(root, { at: now, index });
  return index;
}

function buildIndex(root: string): InodeIndex {
  const index: InodeIndex = new Map();
  const add = (file: string, s: Stats) => {
    if (!s.isFile() || s.nlink < 2) return;
    const list = index.get(key(s));
    if (list) list.push(file);
    else index.set(key(s), [file]);
  };
  const top = statSync(root, { throwIfNoEntry: false });
  if (!top) return index;
  if (!top.isDirectory()) {
    add(root, top);
    return index;
  }
  let budget = MAX_ENTRIES;
  const stack = [root];
  while (stack.length > 0 && budget > 0) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (--budget < 0) break;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) stack.push(full);
      else if (e.isFile()) {
        const s = statSync(full, { throwIfNoEntry: false });
        if (s) add(full, s);
      }
    }
  }
  return index;
}
