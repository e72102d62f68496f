/**
 * Shell scripts a line runs by name — `bash x.sh`, `sh < x.sh`, `. ./env.sh`, `at -f x`, `./x.sh`
 * (a file starting with a shell's `#!` line, or with none) — read when the call is checked and
 * analysed like the line itself, for deny and ask rules and Read/Edit deny rules.
 *
 * Fail closed: a script that does not exist yet, is not a plain file, is too big, or that the same
 * line writes, cannot be known before it runs. Scripts run by other interpreters (`python3 x.py`),
 * makefiles and package.json scripts are not read.
 */
import { closeSync, openSync, readSync, statSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeBash } from './analyze.js';
import type { Analysis, Leaf } from './analysis.js';
import type { ParsedRule } from '../../base/rule-parse.js';
import type { PermissionContext } from '../../base/tool.js';
import { fileAccesses, forEachLeaf, pathDenyRules, settingsPathDeny } from './file-access.js';
import { treeReadDenial, type TreeDenial } from './tree-access.js';
import { resolvePathWord } from './read-only.js';
import type { Word } from './words.js';

export interface ScriptReading {
  /** The analyses of every script reached (scripts they run included). */
  analyses: Analysis[];
  /** Why a script's content cannot be known now; undefined when every one was read. */
  problem?: string;
}

interface Where {
  cwd: string;
  homeDir: string;
}

const MAX_SCRIPT_BYTES = 256 * 1024;
const MAX_DEPTH = 3;
const SHELL_SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k|mk|a|posh|y)?sh\b/;

export function scriptsRun(a: Analysis, where: Where, depth = 0, seen = new Set<string>()): ScriptReading {
  const out: ScriptReading = { analyses: [] };
  const written = new Set(
    fileAccesses(a, where)
      .filter((f) => f.access === 'write')
      .map((f) => f.path),
  );
  forEachLeaf(
    a,
    where,
    (leaf, cwd) => {
      if (out.problem) return;
      const word = scriptWord(leaf);
      if (!word) return;
      const file = resolvePathWord(word, cwd, where.homeDir);
      const read = readScript(word, file, written, leaf.scriptFile === undefined);
      if (read === undefined) return;
      if (typeof read !== 'string') {
        out.problem = read.problem;
        return;
      }
      if (seen.has(file!) || depth >= MAX_DEPTH) {
        if (depth >= MAX_DEPTH) out.problem = `${word.value} runs scripts nested too deeply to follow`;
        return;
      }
      seen.add(file!);
      const inner = analyzeBash(read);
      out.analyses.push(inner);
      const deeper = scriptsRun(inner, { cwd: cwd ?? where.cwd, homeDir: where.homeDir }, depth + 1, seen);
      out.analyses.push(...deeper.analyses);
      out.problem ??= deeper.problem;
    },
    true,
  );
  return out;
}

/** The script a leaf runs: its scriptFile, or its command name when that is a path (`./x.sh`). */
function scriptWord(leaf: Leaf): Word | undefined {
  if (leaf.scriptFile) return leaf.scriptFile;
  const name = leaf.words[0];
  return name?.literal && name.value.includes('/') ? name : undefined;
}

/**
 * The script's text; undefined when it is not a shell script (a program run by path); a problem
 * when it cannot be known now. `byPath`: run as a program, so only shell scripts count.
 */
function readScript(word: Word, file: string | undefined, written: Set<string | undefined>, byPath: boolean): string | { problem: string } | undefined {
  const name = word.value;
  if (file === undefined) return byPath ? undefined : { problem: `the script ${word.raw} is only known when it runs` };
  if (written.has(file)) return { problem: `${name} is written by the same command line, so what it runs is only known then` };
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) return { problem: `${name} is not a plain file` };
    size = st.size;
  } catch {
    return byPath ? undefined : { problem: `${name} does not exist yet, so what it runs cannot be checked` };
  }
  if (byPath && !isShellScript(file)) return undefined;
  if (size > MAX_SCRIPT_BYTES) return { problem: `${name} is too big to read before it runs` };
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    return { problem: `${name} cannot be read: ${(err as Error).message}` };
  }
}

/** A file run by path: a shell's `#!` line, or text without one (bash runs it itself). */
function isShellScript(file: string): boolean {
  const head = Buffer.alloc(128);
  let n = 0;
  try {
    const fd = openSync(file, 'r');
    try {
      n = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  const text = head.subarray(0, n).toString('latin1');
  if (text.startsWith('#!')) return SHELL_SHEBANG.test(text.split('\n', 1)[0]!);
  return n > 0 && !head.subarray(0, n).includes(0) && path.extname(file) !== '.so';
}

/** Read/Edit deny rules applied to what the scripts a line runs touch (a script that cannot be read: the first such rule). */
export function scriptsPathDeny(a: Analysis, ctx: PermissionContext): ParsedRule | undefined {
  if (!a.leaves.some((l) => scriptWord(l))) return undefined;
  const scripts = scriptsRun(a, ctx);
  if (scripts.problem) return pathDenyRules(ctx, ['Read'])[0];
  for (const s of scripts.analyses) {
    const hit = settingsPathDeny(s, ctx);
    if (hit) return hit;
  }
  return undefined;
}

/** A whole-folder read (tree-access.ts) by a script the line runs. */
export function scriptsTreeRead(a: Analysis, ctx: PermissionContext): TreeDenial | undefined {
  if (!a.leaves.some((l) => scriptWord(l))) return undefined;
  for (const s of scriptsRun(a, ctx).analyses) {
    const hit = treeReadDenial(s, ctx);
    if (hit) return hit;
  }
  return undefined;
}
