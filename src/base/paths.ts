/** Path helpers shared by the file and search tools. */
import { homedir } from 'node:os';
import path from 'node:path';

/** Resolve a model-given path: `~` → home, relative → against cwd. Always absolute and normalized. */
export function resolveToolPath(p: string, cwd: string, home: string = homedir()): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(cwd, p);
}

/** Is `child` the same as or inside `parent`? Both absolute. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Inside the project or one of the additional directories? */
export function isInWorkspace(p: string, ctx: { projectRoot: string; additionalDirs: readonly string[]; cwd?: string }): boolean {
  return [ctx.projectRoot, ...ctx.additionalDirs].some((d) => isInside(p, d));
}

/** 1234567 → "1,234,567" without loading locale data (toLocaleString costs ~20 ms on first use). */
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
