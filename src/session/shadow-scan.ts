/**
 * Brings the shadow index (shadow-git.ts) up to date with the work tree, and reads the modes of its
 * files and folders (shadow-modes.ts):
 * - `fullScan`: git's walk of the whole tree (`git add -A`), with the small ignored files added and
 *   the large ignored folders left out (shadow-exclude.ts); the modes are read beside it.
 * - `partialScan`: only the paths the watch (tree-watch.ts) saw change, under the same rules. It
 *   gives up (the caller then makes a full scan) on what it cannot vouch for: a `.gitignore` or a
 *   `.git` among them (the rules or a nested repository changed), or a new ignored folder (small or
 *   large, it changes what the scan leaves out).
 */
import { lstat } from '../base/fs/lazy-fs.js';
import path from 'node:path';
import { overCap, sameList, smallIgnored } from './shadow-exclude.js';
import { nulFields, type GitResult, type GitRunOptions } from './shadow-git-run.js';
import { readModes, updateModes, type Exec, type ModeMap } from './shadow-modes.js';

export interface ScanPlace {
  workTree: string;
  fileCap: number;
  /** Folders never part of a snapshot (relative): wicket's own inside the project. */
  always: readonly string[];
  git(args: readonly string[], opts?: GitRunOptions): Promise<GitResult>;
  /** A git command that takes the index's lock. */
  locked(args: readonly string[], opts?: GitRunOptions): Promise<GitResult>;
  /** Adds exact paths to the shadow's excludes. */
  exclude(rels: readonly string[]): void;
  exec: Exec;
}

export interface ScanResult {
  /** The ignored folders left out as large (relative). */
  leftOut: string[];
  modes: ModeMap;
  /** The nested repositories (relative folders holding a `.git`). */
  nested: string[];
}

/** More changed paths than this: a full scan. */
export const MAX_PARTIAL_PATHS = 1000;

const LIST_IGNORED = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'];
const FROM_STDIN = ['--pathspec-from-file=-', '--pathspec-file-nul'];

/**
 * `guess`: the folders the last scan left out, when known: the modes walk starts at once with them,
 * beside git's two walks, instead of after the ignored files are listed and measured; it is made
 * again when this scan leaves out other folders.
 */
export async function fullScan(p: ScanPlace, guess?: readonly string[]): Promise<ScanResult> {
  const added = p.locked(['add', '-A', '-v', '--ignore-errors', '--', '.'], { okCodes: [0, 1] });
  added.catch(() => undefined); // awaited below, after the ignored files are listed
  const early = guess && readModes(p.workTree, [...guess, ...p.always], p.exec);
  early?.catch(() => undefined);
  const ignoredPaths = nulFields((await p.git(LIST_IGNORED)).stdout);
  const small = await smallIgnored(p.workTree, ignoredPaths, p.fileCap);
  const kept = new Set(small);
  const leftOut = ignoredPaths.filter((x) => x.endsWith('/') && !kept.has(x.slice(0, -1))).map((x) => x.slice(0, -1));
  // the modes are read while git walks the tree
  const modes = early && sameList(guess, leftOut) ? early : readModes(p.workTree, [...leftOut, ...p.always], p.exec);
  const [{ map, nested }] = await Promise.all([modes, added.then((r) => dropOverCap(p, r))]);
  if (small.length) await addSmall(p, small);
  return { leftOut, modes: map, nested };
}

/**
 * Updates the index for `changed` (relative paths the watch saw, with everything under them) only.
 * Undefined when it cannot vouch for the result: the caller makes a full scan.
 */
export async function partialScan(
  p: ScanPlace,
  changed: readonly string[],
  leftOut: readonly string[],
  modes: ModeMap,
): Promise<{ modes: ModeMap; nested: string[] } | undefined> {
  if (!changed.length || changed.length > MAX_PARTIAL_PATHS) return undefined;
  if (changed.some((c) => c === '' || c.split('/').some((s) => s === '.git' || s === '.gitignore'))) return undefined;
  const inside = (c: string, dirs: readonly string[]) => dirs.some((s) => c === s || c.startsWith(`${s}/`));
  // a folder left out as large changed (removed, replaced by a small one): only a full scan can tell
  if (changed.some((c) => inside(c, leftOut))) return undefined;
  const skip = [...leftOut, ...p.always];
  const paths = changed.filter((c) => !inside(c, p.always));
  const there = await Promise.all(
    paths.map((c) =>
      lstat(path.join(p.workTree, c)).then(
        () => true,
        () => false,
      ),
    ),
  );
  const present = paths.filter((_, i) => there[i]);
  const missing = paths.filter((_, i) => !there[i]);
  if (missing.length) await p.locked(['rm', '-r', '-q', '--cached', '--ignore-unmatch', ...FROM_STDIN], { input: nul(missing) });
  const nested: string[] = [];
  if (!present.length) return { modes: await updateModes(p.workTree, modes, paths, skip, nested), nested };
  const [added, ignored, nextModes] = await Promise.all([
    p.locked(['add', '-A', '-v', '--ignore-errors', ...FROM_STDIN], { input: nul(present), okCodes: [0, 1] }),
    p.git([...LIST_IGNORED, '--', ...present]),
    updateModes(p.workTree, modes, paths, skip, nested),
  ]);
  await dropOverCap(p, added);
  const ignoredPaths = nulFields(ignored.stdout);
  if (ignoredPaths.some((x) => x.endsWith('/'))) return undefined;
  const small = await smallIgnored(p.workTree, ignoredPaths, p.fileCap);
  if (small.length) await addSmall(p, small);
  return { modes: nextModes, nested };
}

/** Files git just added that are over the cap leave the index, and later scans. */
async function dropOverCap(p: ScanPlace, added: GitResult): Promise<void> {
  const big = overCap(p.workTree, added.stdout.toString('utf8'), p.fileCap);
  if (!big.length) return;
  p.exclude(big);
  await p.locked(['rm', '-q', '--cached', '--ignore-unmatch', ...FROM_STDIN], { input: nul(big) });
}

async function addSmall(p: ScanPlace, small: readonly string[]): Promise<void> {
  await p.locked(['add', '-f', '--ignore-errors', ...FROM_STDIN], { input: nul(small), okCodes: [0, 1] });
}

function nul(paths: readonly string[]): string {
  return `${paths.join('\0')}\0`;
}
