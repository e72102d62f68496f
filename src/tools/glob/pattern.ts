/**
 * Turns a Glob call into a plan: the folder the pattern is relative to, the pattern itself, and the
 * narrowest folder rg has to walk. Pure: no file system access.
 *
 * - `src/**\/*.ts` with no path: matched from the working directory; rg only walks `src/`.
 * - an absolute pattern (`/repo/lib/*.js`, `~/x/*.md`) or one that climbs (`../other/**`) moves the
 *   search root to its literal leading folders; `path` is then ignored.
 * - a pattern with no wildcard names one file (`src/index.ts`): rg walks its folder.
 * Standard glob semantics: `*.ts` matches only directly in the searched folder; `**` crosses folders.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import { resolveToolPath } from '../../base/paths.js';

export interface GlobPlan {
  /** Absolute folder the pattern is matched from (the search root). */
  root: string;
  /** The pattern, relative to `root`, with `/` separators. */
  pattern: string;
  /** Absolute folder rg walks: `root` or a folder inside it named by the pattern's literal start. */
  walkDir: string;
}

function climbs(base: string): boolean {
  return base.split('/').includes('..');
}

export function planGlob(rawPattern: string, pathArg: string | undefined, cwd: string, home: string): GlobPlan {
  const pattern = rawPattern.trim();
  const scan = picomatch.scan(pattern);
  const base = scan.base;
  const rooted = path.isAbsolute(pattern) || pattern === '~' || pattern.startsWith('~/') || climbs(base);
  if (rooted) {
    if (!scan.isGlob) {
      const file = resolveToolPath(base, cwd, home);
      return { root: path.dirname(file), pattern: escapeLiteral(path.basename(file)), walkDir: path.dirname(file) };
    }
    const root = resolveToolPath(base || '/', cwd, home);
    return { root, pattern: scan.glob, walkDir: root };
  }
  const root = resolveToolPath(pathArg ?? '.', cwd, home);
  const relPattern = pattern.slice(scan.start);
  if (!base) return { root, pattern: relPattern, walkDir: root };
  const literalDir = scan.isGlob ? base : path.posix.dirname(base);
  return { root, pattern: relPattern, walkDir: literalDir === '.' ? root : path.join(root, literalDir) };
}

/** A literal file name used as a pattern: glob characters in it are escaped. */
function escapeLiteral(name: string): string {
  return name.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}

/** A matcher for paths relative to the plan's root (with `/` separators). Dot files match `*`. */
export function globMatcher(plan: GlobPlan, platform: string = process.platform): (relPath: string) => boolean {
  const nocase = platform === 'darwin' || platform === 'win32';
  return picomatch(plan.pattern, { dot: true, nocase });
}

/** Why a pattern cannot be used at all, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  const p = pattern.trim();
  if (p === '') return 'pattern is empty. Pass a glob such as "**/*.ts".';
  if (p.startsWith('!')) return 'pattern must not start with "!": Glob lists files that match; there is no exclusion syntax.';
  return undefined;
}

/** A hint for an empty result when the pattern only looks at the top folder. */
export function topLevelHint(pattern: string): string | undefined {
  if (pattern.includes('/') || pattern.includes('**')) return undefined;
  return `"${pattern}" only matches directly inside the searched directory; use "**/${pattern}" to search every level.`;
}
