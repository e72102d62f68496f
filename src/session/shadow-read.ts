/** Reading a shadow repository's trees and blobs (shadow-git.ts). */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { nulFields, type GitResult, type GitRunOptions } from './shadow-git-run.js';

type Git = (args: readonly string[], opts?: GitRunOptions) => Promise<GitResult>;

/** One path that differs between two trees: git's modes (`100644`, `100755`, `120000`, `160000`, `000000` when absent). */
export interface TreeChange {
  path: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
}

/** Paths that differ from tree `from` to tree `to`. */
export async function treeDiff(git: Git, from: string, to: string): Promise<TreeChange[]> {
  const out = await git(['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]);
  const f = nulFields(out.stdout);
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < f.length; i += 2) {
    const [oldMode, newMode, oldBlob, newBlob] = f[i]!.replace(/^:/, '').split(' ');
    changes.push({ path: f[i + 1]!, oldMode: oldMode!, newMode: newMode!, oldBlob: oldBlob!, newBlob: newBlob! });
  }
  return changes;
}

/** Which of `rels` are in any of `trees`. */
export async function presentIn(git: Git, trees: readonly string[], rels: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (!rels.length) return found;
  for (const tree of trees) {
    const out = await git(['ls-tree', '-r', '-z', '--name-only', tree, '--', ...rels]);
    for (const p of nulFields(out.stdout)) found.add(p);
  }
  return found;
}

/** Lines added and removed per path from `from` to `to` (undefined for binary files). */
export async function treeNumstat(git: Git, from: string, to: string): Promise<Map<string, { added: number; removed: number } | undefined>> {
  const out = await git(['diff-tree', '-r', '-z', '--no-renames', '--numstat', from, to]);
  const counts = new Map<string, { added: number; removed: number } | undefined>();
  for (const rec of nulFields(out.stdout)) {
    const [a, r, ...p] = rec.split('\t');
    counts.set(p.join('\t'), a === '-' ? undefined : { added: Number(a), removed: Number(r) });
  }
  return counts;
}

/** The bytes of blobs, read in one git process. */
export async function readBlobs(git: Git, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const map = new Map<string, Buffer>();
  if (!ids.length) return map;
  const out = (await git(['cat-file', '--batch'], { input: `${[...new Set(ids)].join('\n')}\n` })).stdout;
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    if (nl < 0) break;
    const [id, type, size] = out.subarray(at, nl).toString('utf8').split(' ');
    if (type === 'missing' || size === undefined) {
      at = nl + 1;
      continue;
    }
    const n = Number(size);
    map.set(id!, out.subarray(nl + 1, nl + 1 + n));
    at = nl + 1 + n + 1;
  }
  return map;
}

/**
 * Whether object `id` (there now) is still there later, when a prune may have run since: its loose
 * file is still there, or (packed now) the packs have not changed.
 */
export function objectKept(objects: string, id: string): () => boolean {
  const loose = path.join(objects, id.slice(0, 2), id.slice(2));
  if (existsSync(loose)) return () => existsSync(loose);
  const packs = () => {
    try {
      const st = statSync(path.join(objects, 'pack'));
      return `${st.ino}:${st.mtimeMs}`;
    } catch {
      return '';
    }
  };
  const then = packs();
  return () => then !== '' && packs() === then;
}

/** What each of `rels` is in `tree`: a file (`x`: executable), a folder, or absent; with their folders. */
export async function treeKinds(git: Git, tree: string, rels: readonly string[]): Promise<Map<string, 'f' | 'x' | 'd'>> {
  const kinds = new Map<string, 'f' | 'x' | 'd'>();
  const paths = rels.filter(Boolean);
  if (!paths.length) return kinds;
  // many paths: the whole tree, rather than a command line too long
  const out = await git(['ls-tree', '-r', '-t', '-z', tree, ...(paths.length <= 500 ? ['--', ...paths] : [])]);
  for (const rec of nulFields(out.stdout)) {
    const tab = rec.indexOf('\t');
    const mode = rec.slice(0, rec.indexOf(' '));
    const kind = mode === '040000' ? 'd' : mode === '100755' ? 'x' : mode === '100644' ? 'f' : undefined;
    if (kind) kinds.set(rec.slice(tab + 1), kind);
  }
  return kinds;
}
