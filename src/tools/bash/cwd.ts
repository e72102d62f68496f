/**
 * The working directory carried from one Bash call to the next. The shell reports its physical
 * directory (`pwd -P`) at exit; a directory inside the project or an additional directory becomes the
 * session's cwd (mapped back through symlinked roots); anything else resets to the project root.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../base/paths.js';

export interface CwdContext {
  cwd: string;
  projectRoot: string;
  additionalDirs: readonly string[];
}

export interface CwdOutcome {
  /** The directory the next call starts in. */
  cwd: string;
  /** Said to the model when the directory was reset. */
  note?: string;
}

/** Where this call starts: the session cwd, or the project root when it has gone away. */
export function startingCwd(ctx: CwdContext): CwdOutcome {
  if (isDirectory(ctx.cwd)) return { cwd: ctx.cwd };
  return { cwd: ctx.projectRoot, note: `The working directory ${ctx.cwd} no longer exists; ran in ${ctx.projectRoot}.` };
}

/** Where the next call starts, given what the shell reported (undefined: it did not say). */
export function nextCwd(reported: string | undefined, started: string, ctx: CwdContext): CwdOutcome {
  if (reported === undefined || reported === started) return { cwd: started };
  for (const root of [ctx.projectRoot, ...ctx.additionalDirs]) {
    const mapped = mapInto(reported, root);
    if (mapped !== undefined) return { cwd: mapped };
  }
  return {
    cwd: ctx.projectRoot,
    note: `Shell cwd was reset to ${ctx.projectRoot}: ${reported} is outside the project and its additional directories.`,
  };
}

/** `p` expressed under `root` when it is inside root (directly, or through root's real path). */
function mapInto(p: string, root: string): string | undefined {
  if (isInside(p, root)) return p;
  const real = realPath(root);
  if (real !== root && isInside(p, real)) return path.join(root, path.relative(real, p));
  return undefined;
}

const realCache = new Map<string, string>();

function realPath(p: string): string {
  let hit = realCache.get(p);
  if (hit === undefined) {
    try {
      hit = realpathSync(p);
    } catch {
      hit = p;
    }
    realCache.set(p, hit);
  }
  return hit;
}

function isDirectory(p: string): boolean {
  try {
    return existsSync(p) && statSync(p).isDirectory();
  } catch {
    return false;
  }
}
