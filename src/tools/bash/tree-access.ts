/**
 * A command line that reads a whole folder (tree-readers.ts) holding a file a Read deny rule covers:
 * `grep -r S3CR3T .` would print `./secret/key.txt:…`. Such a line needs a person (and is refused in
 * bypassPermissions mode, where nobody would be asked), unless it runs in the OS sandbox, which
 * hides the denied files from it — but not what a git repository's history holds of them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { deniedAmong, deniedUnder, type DeniedHit } from '../../permissions/denied-under.js';
import { trackedFilesSync } from '../../base/git-status.js';
import { formatRule, type ParsedRule } from '../../base/rule-parse.js';
import type { PermissionContext } from '../../base/tool.js';
import type { Analysis, Leaf } from './analysis.js';
import { isReadOnlyLeaf } from './classify.js';
import { forEachLeaf, pathDenyRules } from './file-access.js';
import { resolvePathWord } from './read-only.js';
import { treeReadOf, type TreeRoot } from './tree-readers.js';

export interface TreeDenial {
  rule: ParsedRule;
  reason: string;
}

/**
 * `historyOnly`: only the readers of a repository's history (git's patch and blob printers), which
 * the sandbox does not hide either.
 */
export function treeReadDenial(a: Analysis, ctx: PermissionContext, historyOnly = false): TreeDenial | undefined {
  const deny = pathDenyRules(ctx, ['Read']);
  if (!deny.length) return undefined;
  let found: TreeDenial | undefined;
  forEachLeaf(
    a,
    ctx,
    (leaf, cwd) => {
      const tree = found ? undefined : treeReadOf(leaf);
      if (!tree || (historyOnly && !tree.history)) return;
      const rule = deny[0]!;
      if (tree.unknown) {
        found = { rule, reason: `${tree.unknown}, so it may read files denied by ${formatRule(rule)}` };
        return;
      }
      for (const root of tree.roots) {
        const dir = resolveRoot(root, cwd, ctx.homeDir);
        if (dir === undefined) {
          found = { rule, reason: `${tree.label} reads every file under a folder only known when it runs, so it may read files denied by ${formatRule(rule)}` };
          return;
        }
        const tracked = tree.trackedOnly && 'repo' in root && nothingElseWrites(a, leaf);
        const hit = tracked ? trackedDenied(dir, deny, ctx) : deniedUnder(dir, deny, ctx, tree.followLinks);
        if (!hit) continue;
        const shown = display(dir, ctx.cwd);
        found = {
          rule: hit.rule,
          reason: hit.tooBig
            ? `${tree.label} reads every file under ${shown}, too many to check against ${formatRule(hit.rule)}`
            : `${tree.label} reads every file under ${shown}, which holds ${display(hit.path, ctx.cwd)}, denied by ${formatRule(hit.rule)}`,
        };
        return;
      }
    },
    true,
  );
  return found;
}

/**
 * Nothing else in the line can change git's index before `leaf` looks at it (`git add -N .env &&
 * git diff` would show the file): the other commands only read, and no redirection writes under `.git`.
 */
function nothingElseWrites(a: Analysis, leaf: Leaf): boolean {
  return a.leaves.every((l) => l === leaf || isReadOnlyLeaf(l)) && a.writes.every((w) => w.literal && !/(^|\/)\.git(\/|$)/.test(w.value));
}

/**
 * A plain `git diff` of the work tree at `dir`: a denied file counts when git tracks it (an ignored
 * `.env` never shows). When git cannot list its files, every file counts, as for any tree reader.
 */
function trackedDenied(dir: string, deny: readonly ParsedRule[], ctx: PermissionContext): DeniedHit | undefined {
  const tracked = trackedFilesSync(dir);
  if (!tracked) return deniedUnder(dir, deny, ctx, false);
  return deniedAmong([dir, ...tracked.map((f) => path.join(dir, f))], deny, ctx);
}

function resolveRoot(root: TreeRoot, cwd: string | undefined, home: string): string | undefined {
  if ('word' in root) {
    const base = root.cwd ? resolvePathWord(root.cwd, cwd, home) : cwd;
    return resolvePathWord(root.word, base, home);
  }
  const start = root.from ? resolvePathWord(root.from, cwd, home) : cwd;
  return start === undefined ? undefined : gitTop(start);
}

/** The work tree holding `dir` (the folder with `.git`), or `dir` itself outside any. */
function gitTop(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return dir;
  }
}

function display(p: string, cwd: string): string {
  const rel = path.relative(cwd, p);
  if (rel === '') return '.';
  return rel.startsWith('..') || path.isAbsolute(rel) ? p : `./${rel}`;
}
