/** A path at its real location: symbolic links followed, also for a file that does not exist yet. */
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** Set by memoizeRealPaths: each path's real location, looked up once. */
let memo: Map<string, string> | undefined;

/**
 * For a process that judges many calls and runs none (`wicket rules test`): each path's real
 * location is looked up once. Never in a session that runs tools, where a link may change between
 * two calls.
 */
export function memoizeRealPaths(): void {
  memo ??= new Map();
}

/** The path as given (normalised) and, when different, its real location with symlinks followed. */
export function pathForms(absPath: string): string[] {
  const given = path.resolve(absPath);
  const real = realPathDeep(given);
  return real === given ? [given] : [given, real];
}

/** realpath of the longest existing ancestor, with the rest appended (the file may not exist yet). */
export function realPathDeep(p: string): string {
  const known = memo?.get(p);
  if (known !== undefined) return known;
  const real = lookUp(p);
  memo?.set(p, real);
  return real;
}

function lookUp(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    const parent = path.dirname(p);
    return parent === p ? p : path.join(realPathDeep(parent), path.basename(p));
  }
}
