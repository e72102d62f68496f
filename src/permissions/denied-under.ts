/**
 * Does a folder hold a path a Read deny rule covers? For programs that read a whole tree (`grep -r`,
 * `tar c`, `cp -r`…): they read every file below the folder, so a denied file below it is read too.
 *
 * - The folder itself denied (or inside a denied folder): yes.
 * - A rule anchored below the folder (`Read(./secret/**)` and the folder `.`): yes when the rule's
 *   fixed part exists (compared without case, as deny rules match); when the rule ends in a pattern
 *   (`Read(./config/*.key)`), when a file it matches exists.
 * - A loose rule (`Read(.env)`, `Read(**\/*.pem)`), which matches at any depth: yes when a matching
 *   path exists below the folder. So `grep -r foo src` runs while only `Read(./secret/**)` exists,
 *   and `grep -r foo .` is refused only if a `.env` is really there.
 * - Symbolic links below the folder are followed (their targets checked, folders walked) when the
 *   program follows them (`grep -R`, `zip -r`, `rg -L`…).
 *
 * The walk is bounded: a tree too big to check within the bound counts as holding a denied path
 * (fail closed), and the reason says so.
 */
import { readdirSync, realpathSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { PermissionContext } from '../base/tool.js';
import { anchorPattern, compilePathRule } from './path-pattern.js';
import { deniedPathRule } from './path-rules.js';
import { pathForms } from './real-path.js';
import type { ParsedRule } from '../base/rule-parse.js';
import { emptyRules } from '../base/permission-types.js';

export interface DeniedHit {
  rule: ParsedRule;
  /** The denied path found (absolute), or the folder when the walk was cut short. */
  path: string;
  /** The tree was too big to check: the hit is assumed. */
  tooBig?: boolean;
}

/** Entries looked at, and time spent, per check before giving up (and assuming the worst). */
export const MAX_WALK_ENTRIES = 10_000;
const MAX_WALK_MS = 500;
const GLOB = /[*?[\]{}]/;

/** The first of `files` (absolute paths, each looked at as written and as the link-free path of its folder) that a Read deny rule covers. */
export function deniedAmong(files: readonly string[], rules: readonly ParsedRule[], ctx: PermissionContext): DeniedHit | undefined {
  const read = rules.filter((r) => r.toolName === 'Read' && r.specifier !== undefined && !r.error);
  if (!read.length) return undefined;
  const matchers = read.map((rule) => ({ rule, match: compilePathRule(rule, 'deny', ctx) }));
  for (const file of files) {
    const hit = matchers.find((m) => m.match(file));
    if (hit) return { rule: hit.rule, path: file };
  }
  return undefined;
}

export function deniedUnder(dir: string, rules: readonly ParsedRule[], ctx: PermissionContext, followLinks: boolean): DeniedHit | undefined {
  const read = rules.filter((r) => r.toolName === 'Read' && r.specifier !== undefined && !r.error);
  if (!read.length) return undefined;
  const denyRules = { ...emptyRules(), deny: [...read] };
  for (const form of pathForms(dir)) {
    const self = deniedPathRule(form, 'read', denyRules, ctx);
    if (self) return { rule: self, path: form };
  }
  // Rules that need a look below the folder: the first one names a walk cut short.
  const walkFor: ParsedRule[] = followLinks ? [...read] : [];
  for (const form of pathForms(dir)) {
    for (const rule of read) {
      const shape = ruleShape(rule, ctx);
      if (shape.loose) walkFor.push(rule);
      for (const fixed of shape.fixed) {
        if (isInside(fixed, form)) {
          const found = existingCaseless(form, path.relative(form, fixed));
          if (found && !shape.tail) return { rule, path: found };
          if (found) walkFor.push(rule);
        } else if (shape.tail && isInside(form, fixed)) walkFor.push(rule);
      }
    }
  }
  if (!walkFor.length) return undefined;
  const matchers = read.map((rule) => ({ rule, match: compilePathRule(rule, 'deny', ctx) }));
  const test = (p: string) => matchers.find((m) => m.match(p))?.rule;
  const root = pathForms(dir).at(-1)!;
  const found = walkTree(root, test, followLinks);
  if (found === 'too big') return { rule: walkFor[0]!, path: root, tooBig: true };
  return found;
}

interface Shape {
  /** Absolute fixed parts (one per anchor), before the first pattern segment. */
  fixed: string[];
  /** The rule continues with a pattern after its fixed part (other than `**`). */
  tail: boolean;
  loose: boolean;
}

function ruleShape(rule: ParsedRule, ctx: PermissionContext): Shape {
  const { anchors, body, loose } = anchorPattern(rule, ctx);
  const segments = body
    .replace(/\/+$/, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  const firstGlob = segments.findIndex((s) => GLOB.test(s));
  const literal = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  const rest = firstGlob === -1 ? [] : segments.slice(firstGlob);
  const tail = rest.some((s) => s !== '**');
  return { fixed: anchors.map((a) => path.resolve(a, ...literal)), tail, loose };
}

/** `rel` below `base`, each segment matched without case; the first real path found. */
function existingCaseless(base: string, rel: string): string | undefined {
  let current = [base];
  for (const segment of rel.split(path.sep).filter(Boolean)) {
    const want = segment.toLowerCase();
    const next: string[] = [];
    for (const dir of current) {
      for (const e of safeReaddir(dir) ?? []) if (e.name.toLowerCase() === want) next.push(path.join(dir, e.name));
    }
    if (!next.length) return undefined;
    current = next;
  }
  return current[0];
}

/** Depth-first walk below `root`: the first entry a rule covers, or 'too big' past the bound. */
function walkTree(root: string, test: (p: string) => ParsedRule | undefined, followLinks: boolean): DeniedHit | 'too big' | undefined {
  const stack = [root];
  const seen = new Set<string>([root]);
  const deadline = Date.now() + MAX_WALK_MS;
  let count = 0;
  while (stack.length) {
    const dir = stack.pop()!;
    for (const e of safeReaddir(dir) ?? []) {
      const full = path.join(dir, e.name);
      if (++count > MAX_WALK_ENTRIES || (count % 256 === 0 && Date.now() > deadline)) return 'too big';
      const rule = test(full);
      if (rule) return { rule, path: full };
      if (e.isDirectory()) stack.push(full);
      else if (e.isSymbolicLink() && followLinks) {
        const real = realOrUndefined(full);
        if (real === undefined) continue;
        const byTarget = test(real);
        if (byTarget) return { rule: byTarget, path: full };
        if (!seen.has(real) && isDirectoryPath(real)) {
          seen.add(real);
          stack.push(real);
        }
      }
    }
  }
  return undefined;
}

function safeReaddir(dir: string): Dirent[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function isDirectoryPath(p: string): boolean {
  return safeReaddir(p) !== undefined;
}

function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}
