/**
 * A rule's `paths:` front matter and the files it covers, as Claude Code matches them: a string of
 * comma-separated patterns or a list, braces expanded (`*.{ts,tsx}`), a trailing `/**` dropped, then
 * gitignore-style matching (the `ignore` package) on the path relative to the rule's project folder
 * (a user or managed rule: relative to the working directory).
 */
import path from 'node:path';
import ignore from 'ignore';

/** Patterns past this many, from one brace expansion, are not expanded (the pattern is kept as written). */
const MAX_EXPANSION = 1000;

/** The patterns of a `paths:` value; undefined when it covers everything (none, or only `**`). */
export function pathPatterns(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = split(value)
    .map((p) => (p.endsWith('/**') ? p.slice(0, -3) : p))
    .filter((p) => p.length > 0);
  return list.every((p) => p === '**') ? undefined : list;
}

function split(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(split);
  if (typeof value !== 'string') return [];
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts.flatMap(expandBraces);
}

/** `a/{b,c}/*.{ts,tsx}` → four patterns; a pattern that would give too many stays as written. */
function expandBraces(pattern: string): string[] {
  if (!pattern.includes('{')) return [pattern];
  const out: string[] = [];
  const todo = [pattern];
  for (let p = todo.pop(); p !== undefined; p = todo.pop()) {
    const m = /^([^{]*)\{([^}]+)\}(.*)$/.exec(p);
    if (!m) {
      out.push(p);
      continue;
    }
    const options = (m[2] ?? '').split(',').map((o) => o.trim());
    if (out.length + todo.length + options.length > MAX_EXPANSION) return [pattern];
    for (let i = options.length - 1; i >= 0; i--) todo.push(`${m[1]}${options[i]}${m[3]}`);
  }
  return out;
}

/** Whether `file` (absolute) is covered by `globs`, taken relative to `base`. */
export function pathsCover(globs: readonly string[], file: string, base: string): boolean {
  const rel = path.relative(base, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  try {
    return ignore()
      .add([...globs])
      .ignores(rel.split(path.sep).join('/'));
  } catch {
    return false;
  }
}
