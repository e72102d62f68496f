/**
 * Expands a glob word the way bash would, against the file system as it is now, so that each file
 * it names can be checked against Read/Edit deny rules: a glob naming every file one folder down
 * reads `secret/key.txt` as surely as `cat secret/key.txt` does. Hidden names match only a pattern
 * that starts with a dot, as in bash. `**` is taken as any depth (bash's globstar), which names at
 * least every file bash would. Bounded: a glob naming too many files is "unknown".
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

const MAX_VISITED = 10_000;
const META = /(?<!\\)[*?[]/;

/** The existing paths the glob names; undefined when there are too many to check. */
export function expandGlob(glob: string, cwd: string, home: string): string[] | undefined {
  let base: string;
  let rest = glob;
  if (rest === '~' || rest.startsWith('~/')) {
    base = home;
    rest = rest.slice(2);
  } else if (rest.startsWith('/')) {
    base = '/';
    rest = rest.slice(1);
  } else base = cwd;
  let current = [base];
  let visited = 0;
  for (const segment of rest.split('/').filter((s) => s !== '')) {
    const next: string[] = [];
    if (!META.test(segment)) {
      const name = segment.replace(/\\(.)/g, '$1');
      for (const dir of current) next.push(path.join(dir, name));
    } else if (segment === '**') {
      for (const dir of current) {
        const below = descendants(dir, MAX_VISITED - visited);
        if (below === undefined) return undefined;
        visited += below.length;
        next.push(dir, ...below);
      }
    } else {
      const match = picomatch(segment, { dot: segment.startsWith('.') || segment.startsWith('\\.') });
      for (const dir of current) {
        for (const name of names(dir)) {
          if (++visited > MAX_VISITED) return undefined;
          if (match(name)) next.push(path.join(dir, name));
        }
      }
    }
    current = next;
    if (!current.length) return [];
  }
  return current.filter(exists);
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every folder below `dir` (hidden ones too), or undefined past `budget`. */
function descendants(dir: string, budget: number): string[] | undefined {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const full = path.join(d, e.name);
      out.push(full);
      if (out.length > budget) return undefined;
      stack.push(full);
    }
  }
  return out;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
