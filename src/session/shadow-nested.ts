/**
 * Nested git repositories (a vendored clone, a package checked out inside the project): git keeps
 * only a link to them, not their files. Each one gets a shadow of its own (shadow-git.ts: its own
 * index and excludes under `<shadow>/nested/<id>/`, objects in the project's shadow), snapshotted
 * with every snapshot of the project (the watch does not look inside it), and its tree takes the
 * link's place in the project's tree: a restore then puts back its files like any other. Its `.git`
 * is never read nor written (git never lists a `.git`), and its own nested repositories are handled
 * the same way by its shadow.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { nulFields, type GitResult, type GitRunOptions } from './shadow-git-run.js';
import type { ModeMap } from './shadow-modes.js';

type Git = (args: readonly string[], opts?: GitRunOptions) => Promise<GitResult>;

export interface NestedTree {
  tree: string;
  modes: { map: ModeMap };
}

export interface NestedShadow {
  writeTree(): Promise<NestedTree>;
}

/** Where the shadow of the nested repository at `rel` keeps its index and excludes. */
export function nestedGitDir(gitDir: string, rel: string): string {
  return path.join(gitDir, 'nested', process.getBuiltinModule('node:crypto').createHash('sha1').update(rel).digest('hex').slice(0, 16));
}

export class NestedShadows {
  private readonly shadows = new Map<string, NestedShadow>();

  constructor(
    private readonly workTree: string,
    private readonly git: Git,
    private readonly make: (rel: string) => NestedShadow,
  ) {}

  /**
   * `state` (the project's tree, with links for the nested repositories at `nested`) with each nested
   * repository's files in its place, and their modes in the record. A nested repository that cannot be
   * snapshotted keeps its link.
   */
  async graft(state: NestedTree, nested: readonly string[]): Promise<NestedTree> {
    const here = nested.filter((rel) => rel && existsSync(path.join(this.workTree, rel, '.git')));
    if (!here.length) return state;
    const subs = await Promise.all(
      here.map((rel) =>
        this.shadow(rel)
          .writeTree()
          .catch(() => {
            this.shadows.delete(rel); // made again next time (its folder may have been pruned)
            return undefined;
          }),
      ),
    );
    let tree = state.tree;
    const map: ModeMap = new Map(state.modes.map);
    for (const [i, rel] of here.entries()) {
      const sub = subs[i];
      if (!sub) continue;
      tree = await graftTree(this.git, tree, rel, sub.tree);
      for (const [k, v] of sub.modes.map) if (k) map.set(`${rel}/${k}`, v);
    }
    return { tree, modes: { map } };
  }

  private shadow(rel: string): NestedShadow {
    let s = this.shadows.get(rel);
    if (!s) this.shadows.set(rel, (s = this.make(rel)));
    return s;
  }
}

/** `tree` with the entry at `rel` (a link, or nothing) replaced by the tree `sub`. */
export async function graftTree(git: Git, tree: string | undefined, rel: string, sub: string): Promise<string> {
  const [head, ...rest] = rel.split('/');
  const entries = tree ? nulFields((await git(['ls-tree', '-z', tree])).stdout) : [];
  const at = entries.findIndex((e) => e.slice(e.indexOf('\t') + 1) === head);
  const current = at >= 0 && / tree /.test(entries[at]!.slice(0, entries[at]!.indexOf('\t'))) ? entries[at]!.split(/[ \t]/)[2] : undefined;
  const id = rest.length ? await graftTree(git, current, rest.join('/'), sub) : sub;
  if (at >= 0) entries.splice(at, 1);
  entries.push(`040000 tree ${id}\t${head}`);
  return (await git(['mktree', '-z'], { input: `${entries.join('\0')}\0` })).stdout.toString('utf8').trim();
}
