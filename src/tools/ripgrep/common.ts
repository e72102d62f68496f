/**
 * What Glob and Grep share: where rg runs, which ignore rules it honours, how its paths are shown,
 * and the order rg sorts paths in.
 */
import path from 'node:path';
import ignore from 'ignore';
import { isInside } from '../../base/paths.js';

/** How long one search may run before rg is killed and what was found so far is returned. */
export const SEARCH_TIMEOUT_MS = 30_000;

/**
 * Flags every search starts with:
 * - `--no-config`: a user's RIPGREP_CONFIG_PATH must not change what the model sees;
 * - `--hidden`: dot files are searched unless an ignore file says otherwise;
 * - `--no-require-git`: .gitignore counts outside git repositories too (.ignore and .rgignore always do);
 * - symbolic links are not followed (no `--follow`): a link could lead out of the workspace.
 * `.git/` is excluded by a trailing `--glob !.git` (see `excludeGlobs`).
 */
export const BASE_FLAGS: readonly string[] = ['--no-config', '--hidden', '--no-require-git'];

/**
 * Settings `respectGitignore: false`: .gitignore (and git's own excludes) no longer hide files from
 * Glob and Grep; .ignore and .rgignore still do, and so do the Read deny rules.
 */
export function gitignoreFlags(settings: Record<string, unknown> | undefined): string[] {
  return settings?.respectGitignore === false ? ['--no-ignore-vcs'] : [];
}

/**
 * The settings key under which the permission layer hands over the `Read(...)` deny rules, as
 * gitignore-style patterns relative to the project root: `secrets/**` (anchored there), `.env` or
 * `**\/secrets/**` (any depth); matched without regard to case. Matching a denied path is the
 * permission layer's job (it refuses a search rooted in one); this list only lets a search over a
 * wider folder leave those paths out instead of printing their contents.
 */
export const READ_DENY_GLOBS_KEY = '__readDenyGlobs';

/** The deny patterns from settings; anything that is not a list of strings is ignored. */
export function readDenyGlobs(settings: Record<string, unknown>): string[] {
  const value = settings[READ_DENY_GLOBS_KEY];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '' && !v.startsWith('#'));
}

/** A gitignore pattern is anchored when a slash appears anywhere but at its end. */
function isAnchored(pattern: string): boolean {
  const p = pattern.startsWith('**/') ? pattern.slice(3) : pattern;
  return p.replace(/\/+$/, '').includes('/');
}

/**
 * `--glob !…` / `--iglob !…` arguments that keep `.git/` and the denied paths out. They must come after any glob
 * of the model's own: in rg the last matching glob wins, so a model glob cannot re-include them.
 *
 * rg matches globs relative to its working directory. `denyGlobs` are relative to the project root:
 * when rg runs elsewhere only the unanchored ones (`.env`, `**\/*.pem`) mean anything, and only those
 * are passed. `atRgCwd` are already relative to rg's working directory (tools/ripgrep/deny.ts).
 */
export function excludeGlobs(denyGlobs: readonly string[], rgCwdIsProjectRoot: boolean, atRgCwd: readonly string[] = []): string[] {
  const args = ['--glob', '!.git'];
  const patterns = new Set<string>();
  for (const raw of denyGlobs) {
    const pattern = raw.trim().replace(/^!/, '');
    if (!rgCwdIsProjectRoot && isAnchored(pattern)) continue;
    patterns.add(pattern.replace(/^\.\//, ''));
  }
  for (const pattern of atRgCwd) patterns.add(pattern);
  // Case-insensitive, like the deny rules themselves: a denial must not hinge on letter case.
  for (const pattern of patterns) args.push('--iglob', `!${pattern}`);
  return args;
}

/** True when the project-relative `absPath` matches one of the deny patterns. */
export function isDeniedPath(absPath: string, projectRoot: string, denyGlobs: readonly string[]): boolean {
  return deniedPathMatcher(path.resolve(projectRoot), denyGlobs)(path.resolve(absPath));
}

/** isDeniedPath for one project root and pattern list, compiled once. */
export function deniedPathMatcher(projectRoot: string, denyGlobs: readonly string[]): (absPath: string) => boolean {
  if (denyGlobs.length === 0) return () => false;
  const matcher = ignore({ ignorecase: true }).add(denyGlobs.map((g) => g.trim().replace(/^\.\//, '')));
  const prefix = projectRoot.endsWith(path.sep) ? projectRoot : projectRoot + path.sep;
  return (absPath) => {
    // Paths here are absolute and normalised (path.resolve): inside means "starts with root/".
    if (!absPath.startsWith(prefix)) return false;
    const rel = absPath.slice(prefix.length).split(path.sep).join('/');
    return rel !== '' && matcher.ignores(rel);
  };
}

/** Where rg runs and which path it is given. */
export interface RgLocation {
  /** rg's working directory: the project root when the target is inside it, else the target's folder. */
  cwd: string;
  /** The path argument, relative to `cwd` (`.` for the folder itself). */
  target: string;
  /** Whether `cwd` is the project root (deny globs then apply as written). */
  atProjectRoot: boolean;
}

export function locateRg(absTarget: string, projectRootRaw: string, targetIsDir: boolean): RgLocation {
  const projectRoot = path.resolve(projectRootRaw);
  if (isInside(absTarget, projectRoot)) {
    const rel = path.relative(projectRoot, absTarget);
    return { cwd: projectRoot, target: rel === '' ? '.' : rel, atProjectRoot: true };
  }
  if (targetIsDir) return { cwd: absTarget, target: '.', atProjectRoot: false };
  return { cwd: path.dirname(absTarget), target: path.basename(absTarget), atProjectRoot: false };
}

/** Absolute path of a path rg printed (relative to its cwd, maybe with a leading `./`). */
export function absoluteFromRg(rgPrinted: string, rgCwd: string): string {
  return path.resolve(rgCwd, rgPrinted);
}

/**
 * How paths are shown to the model, one rule for both tools: relative to the working directory when
 * the file is inside it, absolute otherwise. Either form can be passed straight to Read.
 */
export function displayPath(absPath: string, cwd: string): string {
  if (!isInside(absPath, cwd)) return absPath;
  const rel = path.relative(cwd, absPath);
  return rel === '' ? '.' : rel;
}

/**
 * rg's `--sort path` order: entries sorted by name inside each folder, depth first, so `a/x`
 * comes before `a.txt`. Comparing component by component gives the same order for whole paths.
 * (Names are compared by UTF-16 code unit, rg compares bytes; they differ only for characters above
 * U+E000 against astral ones.)
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a.split('/');
  const pb = b.split('/');
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** `./a/b` → `a/b`: rg prefixes `./` when it is given `.` as the path. */
export function stripDotSlash(p: string): string {
  return p.startsWith('./') ? p.slice(2) : p;
}
