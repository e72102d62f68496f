/**
 * Read(...) deny rules as gitignore patterns for ripgrep, relative to the folder rg runs in: a Grep
 * or Glob over a wide folder leaves denied paths out instead of printing their contents. The anchors
 * follow path-rules.ts: `//abs`, `~/p`, `/p` (the settings source's root), `./p`, and loose `p` (any
 * depth, as deny rules are fail-closed); each anchor counts as written and with its links followed.
 *
 * These patterns only prune the walk. rg matches them against the paths it prints, so they cannot
 * see through every spelling of a folder; the search tools also check each path they return against
 * the rules themselves (tools/ripgrep/deny.ts).
 */
import path from 'node:path';
import { ruleAnchorRoot } from '../settings/paths.js';
import { isInside } from '../base/paths.js';
import { realPathDeep } from './real-path.js';
import type { ParsedRule } from '../base/rule-parse.js';

interface Anchors {
  projectRoot: string;
  homeDir: string;
  /** The working directory, when it moved away from the project root (`./p` covers both). */
  cwd?: string;
}

/** Patterns relative to the project root (the folder rg runs in for a search inside the project). */
export function readDenyPatterns(deny: readonly ParsedRule[], ctx: Anchors): string[] {
  return readDenyGlobsAt(deny, ctx, ctx.projectRoot);
}

/** Patterns relative to `rgCwd`, the folder rg runs in (given as its real path). */
export function readDenyGlobsAt(deny: readonly ParsedRule[], ctx: Anchors, rgCwd: string): string[] {
  const out = new Set<string>();
  for (const rule of deny) {
    if (rule.error || rule.toolName !== 'Read' || rule.specifier === undefined) continue;
    for (const p of patternsFor(rule, ctx, rgCwd)) out.add(p);
  }
  return [...out];
}

function patternsFor(rule: ParsedRule, ctx: Anchors, rgCwd: string): string[] {
  const spec = rule.specifier!.replace(/\/+$/, '');
  if (!spec) return [];
  const absolute = absolutePatterns(spec, rule, ctx);
  if (absolute === undefined) {
    // Loose: any depth.
    const body = spec.startsWith('**/') ? spec : `**/${spec}`;
    return [body, `${body}/**`];
  }
  return absolute.flatMap((abs) => relativeTo(abs, rgCwd));
}

/** A rule's pattern split where its first wildcard segment starts: a literal folder, and the rest. */
interface AbsolutePattern {
  fixed: string;
  rest: string;
}

/** The rule's pattern as absolute paths (anchor as written, and real), or undefined for a loose one. */
function absolutePatterns(spec: string, rule: ParsedRule, ctx: Anchors): AbsolutePattern[] | undefined {
  const home = /^(~|\$HOME|\$\{HOME\})(\/|$)/.exec(spec);
  let anchors: string[];
  let body: string;
  if (spec.startsWith('//')) [anchors, body] = [['/'], spec.slice(2)];
  else if (home) [anchors, body] = [[ctx.homeDir], spec.slice(home[0].length)];
  else if (spec.startsWith('/')) [anchors, body] = [[ruleAnchorRoot(rule.source, rule.sourcePath, ctx.projectRoot)], spec.slice(1)];
  else if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
    [anchors, body] = [[ctx.projectRoot, ...(ctx.cwd && ctx.cwd !== ctx.projectRoot ? [ctx.cwd] : [])], spec];
  } else return undefined;
  const all = [...new Set(anchors.flatMap((a) => [a, realPathDeep(a)]))];
  return all.map((a) => splitPattern(a, body));
}

/** `anchor` + `body`: the literal folders (`.` and `..` resolved) and the part from the first wildcard on. */
function splitPattern(anchor: string, body: string): AbsolutePattern {
  const segments = body.split('/').filter((s) => s !== '');
  const firstGlob = segments.findIndex((s) => /[*?[{]/.test(s));
  if (firstGlob === -1) return { fixed: path.resolve(anchor, ...segments), rest: '' };
  return { fixed: path.resolve(anchor, ...segments.slice(0, firstGlob)), rest: segments.slice(firstGlob).join('/') };
}

/** An absolute pattern as rg globs relative to `rgCwd`. */
function relativeTo({ fixed, rest }: AbsolutePattern, rgCwd: string): string[] {
  if (isInside(fixed, rgCwd)) {
    const rel = [escapeGlob(path.relative(rgCwd, fixed).split(path.sep).join('/')), rest].filter(Boolean).join('/');
    return rel === '' || rel === '**' ? ['**'] : [rel, `${rel}/**`];
  }
  // The search runs inside the rule's fixed folder: only a rest that starts with `**` applies as is.
  if (isInside(rgCwd, fixed) && rest.startsWith('**')) return rest === '**' ? ['**'] : [rest, `${rest}/**`];
  return [];
}

/** A literal path as a glob: its wildcard characters escaped. */
function escapeGlob(literal: string): string {
  return literal.replace(/[*?[\]{}!\\]/g, '\\$&');
}
