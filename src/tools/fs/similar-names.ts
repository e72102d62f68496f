/** Close matches for a path that does not exist: same name in another case, another extension, a typo. */
import { readdir } from '../../base/fs/lazy-fs.js';
import path from 'node:path';

const MAX_ENTRIES = 5000;

/**
 * Up to `max` existing siblings whose names are close to the missing file's name; none that
 * `hidden` says are denied (a suggestion would name a file the rules hide).
 */
export async function similarSiblings(absPath: string, max = 3, hidden?: (absPath: string) => boolean): Promise<string[]> {
  const dir = path.dirname(absPath);
  let names: string[];
  try {
    names = (await readdir(dir)).slice(0, MAX_ENTRIES);
  } catch {
    return [];
  }
  const wanted = path.basename(absPath);
  return names
    .map((name) => ({ name, score: nameDistance(wanted, name) }))
    .filter((c) => c.score <= Math.max(2, Math.floor(wanted.length / 4)))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .map((c) => path.join(dir, c.name))
    .filter((p) => !hidden?.(p))
    .slice(0, max);
}

/** 0 for the same name in another case or with another extension; otherwise the edit distance. */
export function nameDistance(wanted: string, candidate: string): number {
  const a = wanted.toLowerCase();
  const b = candidate.toLowerCase();
  if (a === b) return 0;
  const stem = (s: string) => (path.extname(s) ? s.slice(0, -path.extname(s).length) : s);
  if (stem(a) === stem(b) && stem(a).length > 0) return 1;
  return levenshtein(a, b, 8);
}

/** Edit distance, giving up (returning `limit + 1`) once it must exceed `limit`. */
export function levenshtein(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length]!;
}
