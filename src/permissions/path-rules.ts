/**
 * Read(...) / Edit(...) path rules (reference/claude-code.md §2.3): gitignore-style patterns with
 * Claude Code's anchors, matched against resolved paths.
 *
 * Anchors: `//abs` filesystem root; `~/p` (and `$HOME/p`) home; `/p` the settings source's root
 * (settings/paths.ts ruleAnchorRoot); `./p`, `../p` and `p` the project root and, when it moved, the
 * current working directory (the file tools suggest rules relative to it).
 *
 * Semantics:
 * - a pattern without `/` (`.env`, `*.pem`, `secrets`) matches at any depth; a pattern naming a
 *   directory also covers everything inside it (gitignore: an ignored folder hides its contents);
 * - deny and ask are fail-closed: a relative pattern not written with `./` matches at any depth
 *   anywhere (`src/**` denies every `…/src/…`), and matching ignores case; allow patterns are
 *   anchored as written and case-sensitive;
 * - paths are normalised (`..`, `.`, trailing `/`) and symlinks followed: an allow needs both the
 *   path as given and its real target to match; a deny or ask applies if either matches.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { ruleAnchorRoot } from '../settings/paths.js';
import type { ParsedRule } from './rule-parse.js';
import type { PermissionContext, PermissionPaths, RuleList } from '../tools/tool.js';
import type { PermissionRules } from './types.js';

type PathMatcher = (absPath: string) => boolean;
type AnchorContext = Pick<PermissionContext, 'cwd' | 'projectRoot' | 'homeDir'>;

const GLOB_CHARS = /[*?[\]{}]/;

/** The first rule in `rules` whose path pattern covers the call's paths (for allow: all of them; else: any). */
export function matchPathRules(
  paths: PermissionPaths,
  rules: ParsedRule[],
  list: RuleList,
  ctx: PermissionContext,
): ParsedRule | undefined {
  if (paths.paths.length === 0) return undefined;
  const forms = paths.paths.flatMap(pathForms);
  const usable = rules.filter((r) => r.specifier !== undefined && !r.error);
  const covering = (p: string) => usable.find((rule) => compilePathRule(rule, list, ctx)(p));
  if (list !== 'allow') {
    for (const rule of usable) if (forms.some((p) => compilePathRule(rule, list, ctx)(p))) return rule;
    return undefined;
  }
  // allow: every path, as written and with links followed, must be covered (by one rule or several).
  let first: ParsedRule | undefined;
  for (const p of forms) {
    const rule = covering(p);
    if (!rule) return undefined;
    first ??= rule;
  }
  return first;
}

/**
 * For tools that find paths on their own (Bash file commands, Grep/Glob results): the Read/Edit rule
 * of `rules.deny` that forbids `access` to `absPath`. A Read deny also forbids writing.
 */
export function deniedPathRule(
  absPath: string,
  access: 'read' | 'write',
  rules: PermissionRules,
  ctx: PermissionContext,
): ParsedRule | undefined {
  const family = access === 'read' ? ['Read'] : ['Edit', 'Read'];
  const deny = rules.deny.filter((r) => r.specifier !== undefined && family.includes(r.toolName));
  return matchPathRules({ access, paths: [absPath] }, deny, 'deny', ctx);
}

/** The path as given (normalised) and, when different, its real location with symlinks followed. */
export function pathForms(absPath: string): string[] {
  const given = path.resolve(absPath);
  const real = realPathDeep(given);
  return real === given ? [given] : [given, real];
}

/** realpath of the longest existing ancestor, with the rest appended (the file may not exist yet). */
export function realPathDeep(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...tail.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return p;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}

const cache = new WeakMap<ParsedRule, Map<string, PathMatcher>>();

/** A matcher for one rule in one list; cached per rule and anchor context. */
export function compilePathRule(rule: ParsedRule, list: RuleList, ctx: AnchorContext): PathMatcher {
  const key = `${list}\0${ctx.cwd}\0${ctx.projectRoot}\0${ctx.homeDir}`;
  let perRule = cache.get(rule);
  if (!perRule) cache.set(rule, (perRule = new Map()));
  let matcher = perRule.get(key);
  if (!matcher) perRule.set(key, (matcher = buildMatcher(rule, list, ctx)));
  return matcher;
}

export interface Anchored {
  /** Directories the pattern is relative to. */
  anchors: string[];
  body: string;
  /** Written relative (`p`, not `./p`): eligible for any-depth matching. */
  loose: boolean;
}

/** Where a rule's pattern is rooted, and whether it is loose (matches at any depth). */
export function anchorPattern(rule: ParsedRule, ctx: AnchorContext): Anchored {
  const spec = rule.specifier ?? '';
  const relativeAnchors = ctx.cwd === ctx.projectRoot ? [ctx.projectRoot] : [ctx.projectRoot, ctx.cwd];
  const home = /^(~|\$HOME|\$\{HOME\})(\/|$)/.exec(spec);
  if (spec.startsWith('//')) return { anchors: ['/'], body: spec.slice(2), loose: false };
  if (home) return { anchors: [ctx.homeDir], body: spec.slice(home[0].length), loose: false };
  if (spec.startsWith('/')) return { anchors: [ruleAnchorRoot(rule.source, rule.sourcePath, ctx.projectRoot)], body: spec.slice(1), loose: false };
  if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
    return { anchors: relativeAnchors, body: spec, loose: false };
  }
  return { anchors: relativeAnchors, body: spec, loose: true };
}

function buildMatcher(rule: ParsedRule, list: RuleList, ctx: AnchorContext): PathMatcher {
  const nocase = list !== 'allow';
  const { anchors, body: rawBody, loose } = anchorPattern(rule, ctx);
  const body = rawBody.replace(/\/+$/, '');
  const matchers = anchors.map((a) => globUnder(a, body, nocase));
  const bare = body !== '' && !body.includes('/');
  // gitignore: a pattern without a slash matches at any depth below its anchor.
  if (bare && loose && list === 'allow') matchers.push(...anchors.map((a) => globUnder(a, `**/${body}`, nocase)));
  // fail-closed: loose deny/ask patterns match at any depth anywhere.
  if (loose && list !== 'allow' && body !== '') matchers.push(globUnder('/', `**/${body}`, nocase));
  return (p) => matchers.some((m) => m(p));
}

/** Matches paths equal to or inside what `pattern` (relative to `anchor`) names. */
function globUnder(anchor: string, pattern: string, nocase: boolean): PathMatcher {
  const segments = pattern === '' ? [] : pattern.split('/');
  const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
  const literal = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  const restSegments = firstGlob === -1 ? [] : segments.slice(firstGlob);
  // `dir/**` names the folder and everything in it (a search of the folder itself reads its contents).
  const rest = restSegments.every((s) => s === '**') ? '' : restSegments.join('/');
  const fold = (s: string) => (nocase ? s.toLowerCase() : s);
  const base = fold(path.resolve(anchor, ...literal));
  if (rest === '') return (p) => isSameOrInside(fold(p), base);
  const glob = picomatch(rest, { dot: true, nocase });
  return (p) => {
    const rel = path.relative(base, fold(p));
    if (rel === '' || isOutside(rel)) return false;
    const parts = rel.split(path.sep);
    for (let i = 1; i <= parts.length; i++) if (glob(parts.slice(0, i).join('/'))) return true;
    return false;
  };
}

function isSameOrInside(p: string, base: string): boolean {
  if (p === base) return true;
  const rel = path.relative(base, p);
  return rel !== '' && !isOutside(rel);
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}
