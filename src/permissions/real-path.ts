/** A path at its real location: symbolic links followed, also for a file that does not exist yet. */
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** The path as given (normalised) and, when different, its real location with symlinks followed. */
export function pathForms(absPath: string): string[] {
  const given = path.resolve(absPath);
  const real = realPathDeep(given);
  return real === given ? [given] : [given, real];
}

/** realpath of the longest existing ancestor, with the rest appended (the file may not exist yet). */
export function realPathDeep(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...tail.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return p;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}
