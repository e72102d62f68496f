/** Moving fetched folders into place: a new copy replaces the old one only once it is whole. */
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { randomHex } from '../base/ids.js';

/** Moves `fresh` to `home` (made if missing); the folder or file that was there goes away only once the new one is in place. */
export function replaceWith(fresh: string, home: string): void {
  const old = existsSync(home) ? `${home}.old-${randomHex(4)}` : undefined;
  if (old) renameSync(home, old);
  try {
    renameSync(fresh, home);
  } catch (err) {
    if (old) renameSync(old, home);
    throw err;
  }
  if (old) rmSync(old, { recursive: true, force: true });
}

/** Copies a folder, leaving out `.git`. */
export function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
}

/** Whether `p` is `root` or inside it (both absolute). */
export function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
