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
 *   path as given and its real target to match; a deny or ask applies if either matches. The anchors
 *   are taken both as written and with their own links followed, so a rule holds however the path
 *   reached its folder (`/proc/self/cwd/…`, a link to the project, a linked home);
 * - deny and ask also fold Unicode compatibility forms (NFKC: composed and decomposed accents,
 *   full-width letters) along with case, so a look-alike spelling of a covered name stays covered.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { ruleAnchorRoot } from '../settings/paths.js';
import type { ParsedRule } from './rule-parse.js';
import type { PermissionContext, PermissionPaths, RuleList } from '../tools/tool.js';
import type { PermissionRules } from './types.js';
import { deniedByInode } from './denied-inodes.js';

type PathMatcher = (absPath: string) => boolean;
type AnchorContext = Pick<PermissionContext, 'cwd' | 'projectRoot' | 'homeDir'>;

const GLOB_CHARS = /[*?[\]{}]/;
/** A `.` or `..` segment, or a doubled separator. */
const UNNORMALISED = /(^|[\\/])\.\.?([\\/]|$)|[\\/]{2}/;

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
  if (list === 'deny') return denyRuleForForms(forms, usable, ctx, paths.paths);
  if (list === 'ask') return usable.find((rule) => forms.some((p) => compilePathRule(rule, list, ctx)(p)));
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
 * The first deny rule covering one of `forms` (a path as written and at its real location, already
 * resolved by the caller), or another name of the same file (a hard link, by inode).
 */
export function denyRuleForForms(
  forms: readonly string[],
  rules: readonly ParsedRule[],
  ctx: AnchorContext,
  /** The files to look up by inode (one name per file is enough): all the forms unless given. */
  files: readonly string[] = forms,
): ParsedRule | undefined {
  for (const rule of rules) if (forms.some((p) => compilePathRule(rule, 'deny', ctx)(p))) return rule;
  for (const p of files) {
    const rule = deniedByInode(p, rules, ctx);
    if (rule) return rule;
  }
  return undefined;
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

/**
 * Whether a Read deny rule hides a path, name and content (for what shows names on its own: a
 * similar-name suggestion, the git status in the system prompt). Undefined without rules.
 */
export function readDeniedCheck(
  ctx: Partial<Pick<PermissionContext, 'rules' | 'cwd' | 'projectRoot' | 'homeDir'>>,
): ((absPath: string) => boolean) | undefined {
  const { rules, cwd, projectRoot, homeDir } = ctx;
  if (!rules || cwd === undefined || projectRoot === undefined || homeDir === undefined) return undefined;
  if (!rules.deny.some((r) => r.toolName === 'Read' && r.specifier !== undefined)) return undefined;
  return (p) => deniedPathRule(p, 'read', rules, { cwd, projectRoot, homeDir } as PermissionContext) !== undefined;
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

interface Anchored {
  /** Directories the pattern is relative to. */
  anchors: string[];
  body: string;
  /** Written relative (`p`, not `./p`): eligible for any-depth matching. */
  loose: boolean;
}

function anchorPattern(rule: ParsedRule, ctx: AnchorContext): Anchored {
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

/**
 * The folders (or files) an anchored rule names before its first wildcard, as written and with links
 * followed: `Read(./secret/**)` → `<project>/secret`. None for a loose rule (`.env`, `*.pem`), which
 * names no place.
 */
export function ruleLiteralRoots(rule: ParsedRule, ctx: AnchorContext): string[] {
  const { anchors, body, loose } = anchorPattern(rule, ctx);
  if (loose) return [];
  const segments = body.replace(/\/+$/, '').split('/').filter((s) => s !== '');
  const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
  const literal = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  const roots = anchors.map((a) => path.resolve(a, ...literal));
  return [...new Set(roots.flatMap((r) => [r, realPathDeep(r)]))];
}

function buildMatcher(rule: ParsedRule, list: RuleList, ctx: AnchorContext): PathMatcher {
  const nocase = list !== 'allow';
  const fold = nocase ? foldForDeny : (s: string) => s;
  const { anchors: written, body: rawBody, loose } = anchorPattern(rule, ctx);
  const anchors = [...new Set(written.flatMap((a) => [a, realPathDeep(a)]))];
  const body = rawBody.replace(/\/+$/, '');
  const matchers = anchors.map((a) => globUnder(a, body, nocase, fold));
  const bare = body !== '' && !body.includes('/');
  // gitignore: a pattern without a slash matches at any depth below its anchor.
  if (bare && loose && list === 'allow') matchers.push(...anchors.map((a) => globUnder(a, `**/${body}`, nocase, fold)));
  // fail-closed: loose deny/ask patterns match at any depth anywhere.
  if (loose && list !== 'allow' && body !== '') matchers.push(globUnder('/', `**/${body}`, nocase, fold));
  return (p) => {
    const folded = fold(p);
    return matchers.some((m) => m(folded));
  };
}

/** Matches (folded) paths equal to or inside what `pattern` (relative to `anchor`) names. */
function globUnder(anchor: string, pattern: string, nocase: boolean, fold: (s: string) => string): PathMatcher {
  const segments = pattern === '' ? [] : pattern.split('/');
  const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
  const literal = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  const restSegments = firstGlob === -1 ? [] : segments.slice(firstGlob);
  // `dir/**` names the folder and everything in it (a search of the folder itself reads its contents).
  const rest = restSegments.every((s) => s === '**') ? '' : restSegments.join('/');
  const base = fold(path.resolve(anchor, ...literal));
  if (rest === '') return (p) => isSameOrInside(p, base);
  const glob = fold === foldForDeny ? rest.normalize('NFKC') : rest;
  // The path itself, or anything inside a path that matches.
  const matches = picomatch([glob, `${glob}/**`], { dot: true, nocase });
  return (p) => {
    const rel = relativeInside(p, base);
    return rel !== undefined && rel !== '' && matches(path.sep === '/' ? rel : rel.split(path.sep).join('/'));
  };
}

/** Case and Unicode compatibility folded: how deny and ask rules compare names. */
export function foldForDeny(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

function isSameOrInside(p: string, base: string): boolean {
  return relativeInside(p, base) !== undefined;
}

/** `p` relative to `base` when it is the same or inside it (both absolute and normalised), else undefined. */
function relativeInside(p: string, base: string): string | undefined {
  if (p === base) return '';
  const prefix = base.endsWith(path.sep) ? base : base + path.sep;
  if (p.startsWith(prefix)) return p.slice(prefix.length);
  // Not normalised (a caller's `..` or doubled separator): fall back to the exact comparison.
  if (!UNNORMALISED.test(p)) return undefined;
  const rel = path.relative(base, p);
  return rel === '' || !isOutside(rel) ? rel : undefined;
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}
