/**
 * The Glob search: `rg --files` lists the files that survive the ignore rules (in parallel), each
 * listed path is matched against the pattern here, and only matches are stat'ed for their mtime.
 * Memory stays at `limit` entries however many files match; the rest are only counted.
 *
 * The pattern is matched here rather than with rg's `--glob`, because in rg a matching `--glob`
 * re-includes files that .gitignore excludes (`--glob '**'` would list node_modules).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../base/errors.js';
import { BASE_FLAGS, excludeGlobs, locateRg, stripDotSlash } from '../ripgrep/common.js';
import type { SearchDeny } from '../ripgrep/deny.js';
import { runRg } from '../../base/ripgrep/run.js';
import { NewestFiles, type FileEntry } from './newest.js';
import { globMatcher, type GlobPlan } from './pattern.js';

export interface GlobSearchOptions {
  projectRoot: string;
  /** Flags added to rg's (gitignoreFlags). */
  extraFlags?: readonly string[];
  /** The Read deny rules: patterns for rg and a check of every path found (see ripgrep/deny.ts). */
  deny?: SearchDeny;
  /** Deny patterns relative to the project root, when no `deny` is given. */
  denyGlobs?: readonly string[];
  signal: AbortSignal;
  timeoutMs: number;
  limit: number;
  env?: Record<string, string | undefined>;
  /** rg stand-in for tests. */
  command?: string;
}

export interface GlobSearchResult {
  /** Absolute paths, newest first, at most `limit`. */
  files: FileEntry[];
  /** How many files matched in all. */
  total: number;
  timedOut: boolean;
}

/** The arguments for `rg --files` over `target` (relative to rg's cwd). */
export function globArgs(
  target: string,
  denyGlobs: readonly string[],
  atProjectRoot: boolean,
  rgCwdDenyGlobs: readonly string[] = [],
  extraFlags: readonly string[] = [],
): string[] {
  return [...BASE_FLAGS, ...extraFlags, '--files', '--null', '--no-messages', ...excludeGlobs(denyGlobs, atProjectRoot, rgCwdDenyGlobs), '--', target];
}

const toPosix = path.sep === '/' ? (p: string) => p : (p: string) => p.split(path.sep).join('/');

export async function searchGlob(plan: GlobPlan, opts: GlobSearchOptions): Promise<GlobSearchResult> {
  const loc = locateRg(plan.walkDir, opts.projectRoot, true);
  const matches = globMatcher(plan);
  const newest = new NewestFiles(opts.limit);
  const cwdPrefix = loc.cwd.endsWith(path.sep) ? loc.cwd : loc.cwd + path.sep;
  const rootPrefixLength = plan.root.endsWith(path.sep) ? plan.root.length : plan.root.length + 1;
  let total = 0;

  const result = await runRg({
    args: globArgs(loc.target, opts.deny?.projectGlobs ?? opts.denyGlobs ?? [], loc.atProjectRoot, opts.deny?.globsAt(loc.cwd), opts.extraFlags),
    cwd: loc.cwd,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    env: opts.env,
    delimiter: '\0',
    command: opts.command,
    onLine: (printed) => {
      if (printed === '') return;
      // walkDir is inside root, so every listed path starts with root + separator.
      const abs = cwdPrefix + stripDotSlash(printed);
      if (!matches(toPosix(abs.slice(rootPrefixLength)))) return;
      // A denied file is left out as if it did not exist: not listed, not counted.
      if (opts.deny?.hides(abs)) return;
      const stat = statSync(abs, { throwIfNoEntry: false });
      if (!stat) return;
      total++;
      newest.add({ path: abs, mtimeMs: stat.mtimeMs });
    },
  });
  if (result.exitCode === 2 && result.stderr !== '' && total === 0) {
    throw new ToolError('execution_failed', `ripgrep could not list files: ${result.stderr}`);
  }
  return { files: [...newest.list()], total, timedOut: result.timedOut };
}
