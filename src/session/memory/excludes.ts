/**
 * Settings `claudeMdExcludes`: glob patterns (picomatch, dotfiles included) of instruction files to
 * leave out. They apply to the user's, the project's and the local files, never to the managed ones.
 * An absolute pattern also matches through a link in its fixed part (`/link/to/repo/**`).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { MemoryType } from './types.js';

export type ExcludeCheck = (file: string, type: MemoryType) => boolean;

export function excludeMatcher(patterns: unknown): ExcludeCheck {
  const list = Array.isArray(patterns) ? patterns.filter((p): p is string => typeof p === 'string' && p.length > 0) : [];
  if (!list.length) return () => false;
  const all = withRealPrefixes(list.map((p) => p.replaceAll('\\', '/')));
  let match: (p: string) => boolean;
  try {
    match = picomatch(all, { dot: true });
  } catch {
    return () => false;
  }
  return (file, type) => (type === 'User' || type === 'Project' || type === 'Local') && match(file.replaceAll(path.sep, '/'));
}

function withRealPrefixes(patterns: string[]): string[] {
  const out = [...patterns];
  for (const p of patterns) {
    if (!p.startsWith('/')) continue;
    const glob = p.search(/[*?{[]/);
    const fixed = glob === -1 ? p : p.slice(0, glob);
    const dir = glob === -1 ? fixed : path.dirname(`${fixed}x`);
    try {
      const real = realpathSync.native(dir);
      if (real !== dir) out.push(real + p.slice(dir.length));
    } catch {
      // nothing there yet: the pattern as written
    }
  }
  return out;
}
