/**
 * One Read(...) / Edit(...) rule compiled into a matcher over absolute paths: the anchors, the
 * gitignore-style pattern, case and Unicode folding for deny and ask (see path-rules.ts for the
 * semantics). Matching a call's paths against whole rule lists is path-rules.ts's.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import { ruleAnchorRoot } from '../settings/paths.js';
import { realPathDeep } from './real-path.js';
import type { ParsedRule } from '../base/rule-parse.js';
import type { PermissionContext, RuleList } from '../base/tool.js';

type PathMatcher = (absPath: string) => boolean;
type AnchorContext = Pick<PermissionContext, 'cwd' | 'projectRoot' | 'homeDir'>;

const GLOB_CHARS = /[*?[\]{}]/;
/** A `.` or `..` segment, or a doubled separator. */
const UNNORMALISED = /(^|[\\/])\.\.?([\\/]|$)|[\\/]{2}/;

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

/**
 * The folders (or files) an anchored rule names before its first wildcard, as written and with links
 * followed: `Read(./secret/**)` → `<project>/secret`. None for a loose rule (`.env`, `*.pem`), which
 * names no place.
 */
export function ruleLiteralRoots(rule: ParsedRule, ctx: AnchorContext): string[] {
  const { anchors, body, loose } = anchorPattern(rule, ctx);
  if (loose) return [];
  const segments = body
    .replace(/\/+$/, '')
    .split('/')
    .filter((s) => s !== '');
  const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
  const literal = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  const roots = anchors.map((a) => path.resolve(a, ...literal));
  return [...new Set(roots.flatMap((r) => [r, realPathDeep(r)]))];
}

/** A `..` segment, or the home folder alone (`~`, `~/`): Claude Code's allow rules match nothing with them. */
const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/;

function buildMatcher(rule: ParsedRule, list: RuleList, ctx: AnchorContext): PathMatcher {
  if (list === 'allow' && (PARENT_SEGMENT.test(rule.specifier ?? '') || /^(~|\$HOME|\$\{HOME\})\/?$/.test(rule.specifier ?? ''))) return () => false;
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
