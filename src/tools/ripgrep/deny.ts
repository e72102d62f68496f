/**
 * The Read deny rules, as the search tools apply them. Two layers, so that a rule never depends on
 * how the search root was spelled (`/proc/self/cwd`, `<project>/..`, a link to the project, `$HOME`):
 *
 * 1. `globsAt(rgCwd)`: rg exclusion patterns relative to the folder rg runs in, computed from that
 *    folder's real path, so denied folders are not even walked;
 * 2. `hides(absPath)`: every path a search would return is checked against the rules themselves, as
 *    written and at its real location (links, `/proc` aliases, `..`, case and Unicode folded, hard
 *    links by inode). A denied file is left out as if it did not exist: no name, no line, no count.
 *
 * The rules come from the call's context (`ctx.rules`); the project-relative patterns the session
 * hands over in the settings (READ_DENY_GLOBS_KEY) count too.
 */
import { lstatSync, statSync, type Stats } from 'node:fs';
import { deniedInodeRule } from '../../permissions/denied-inodes.js';
import path from 'node:path';
import { denyRuleForForms } from '../../permissions/path-rules.js';
import { realPathDeep } from '../../permissions/real-path.js';
import { readDenyGlobsAt } from '../../permissions/search-deny.js';
import type { PermissionContext } from '../../base/tool.js';
import { deniedPathMatcher, readDenyGlobs } from './common.js';

export interface SearchDeny {
  /** Patterns from the settings key, relative to the project root (see excludeGlobs). */
  readonly projectGlobs: readonly string[];
  /** Exclusion patterns relative to `rgCwd` (the folder rg runs in, as spelled). */
  globsAt(rgCwd: string): string[];
  /** Whether a path a search found must be left out. */
  hides(absPath: string): boolean;
}

/** Nothing denied: for callers without rules. */
export const NO_SEARCH_DENY: SearchDeny = { projectGlobs: [], globsAt: () => [], hides: () => false };

type DenyContext = Pick<PermissionContext, 'cwd' | 'projectRoot' | 'homeDir' | 'rules' | 'settings'>;

export function searchDeny(ctx: DenyContext): SearchDeny {
  const rules = (ctx.rules?.deny ?? []).filter((r) => r.toolName === 'Read' && r.specifier !== undefined && !r.error);
  const projectGlobs = readDenyGlobs(ctx.settings);
  if (rules.length === 0 && projectGlobs.length === 0) return NO_SEARCH_DENY;
  const inProject = deniedPathMatcher(ctx.projectRoot, projectGlobs);
  const inRealProject = deniedPathMatcher(realPathDeep(ctx.projectRoot), projectGlobs);
  const byGlob = (p: string) => inProject(p) || inRealProject(p);
  const realDir = cachedRealDir();
  return {
    projectGlobs,
    globsAt: (rgCwd) => (rules.length ? readDenyGlobsAt(rules, ctx, realPathDeep(path.resolve(rgCwd))) : []),
    hides(absPath) {
      const given = path.resolve(absPath);
      const { real, stats } = realOf(given, realDir);
      if (projectGlobs.length && (byGlob(given) || byGlob(real))) return true;
      if (rules.length === 0) return false;
      if (denyRuleForForms(real === given ? [given] : [given, real], rules, ctx, []) !== undefined) return true;
      // Another name of a denied file (a hard link), recognised by its inode.
      return stats !== undefined && deniedInodeRule(stats, rules, ctx) !== undefined;
    },
  };
}

/**
 * Real location of a path: its folder's real path (cached per folder), or its own target when it is
 * a link; and its stat with links followed (undefined when it is gone).
 */
function realOf(given: string, realDir: (dir: string) => string): { real: string; stats?: Stats } {
  const own = lstatSync(given, { throwIfNoEntry: false });
  if (own?.isSymbolicLink()) return { real: realPathDeep(given), stats: statSync(given, { throwIfNoEntry: false }) };
  return { real: path.join(realDir(path.dirname(given)), path.basename(given)), stats: own };
}

function cachedRealDir(): (dir: string) => string {
  const cache = new Map<string, string>();
  return (dir) => {
    let real = cache.get(dir);
    if (real === undefined) cache.set(dir, (real = realPathDeep(dir)));
    return real;
  };
}
