/** The shapes and option helpers the tree-reader tables share (tree-readers.ts, tree-readers-archive.ts). */
import type { Leaf } from './analysis.js';
import { literalWord, type Word } from './words.js';

/** A folder read recursively: a word (resolved against the command's directory), or the git work tree. */
export type TreeRoot = { word: Word; cwd?: Word } | { repo: true; from?: Word };

export interface TreeRead {
  /** Short name for the reason ("grep -r", "tar c"). */
  label: string;
  roots: TreeRoot[];
  /** Follows symbolic links below the folder. */
  followLinks: boolean;
  /** The folders are only known when it runs (`tar -T list`, `xargs` fed by a file). */
  unknown?: string;
  /** Reads the repository's history too, which the sandbox's mounts do not hide. */
  history?: boolean;
  /**
   * Shows only what git's index holds of the work tree (a plain `git diff`): a denied file there
   * counts only when git tracks it; one git does not know never reaches the output.
   */
  trackedOnly?: boolean;
}

export type Reader = (words: Word[], leaf: Leaf) => TreeRead | undefined;

export const DOT = literalWord('.');
export const has = (words: Word[], ...opts: string[]): boolean => words.some((w) => opts.includes(w.value));
/** A short option letter alone or in a cluster (`-rn`), or one of the long forms. */
export function flag(words: Word[], letters: string, longs: string[] = []): boolean {
  return words.some(
    (w) =>
      (/^-[A-Za-z0-9]+$/.test(w.value) && [...letters].some((l) => w.value.slice(1).includes(l))) ||
      longs.some((l) => w.value === l || w.value.startsWith(`${l}=`)),
  );
}
