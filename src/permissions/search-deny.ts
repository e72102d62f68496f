/**
 * Read(...) deny rules as gitignore patterns relative to the project root, for the search tools:
 * a Grep or Glob over a wide folder leaves denied paths out instead of printing their contents.
 * The anchors follow path-rules.ts: `//abs`, `~/p`, `/p` (the settings source's root), `./p`, and
 * loose `p` (any depth, as deny rules are fail-closed).
 */
import path from 'node:path';
import { ruleAnchorRoot } from '../settings/paths.js';
import { isInside } from '../base/paths.js';
import type { ParsedRule } from '../base/rule-parse.js';

export function readDenyPatterns(deny: readonly ParsedRule[], ctx: { projectRoot: string; homeDir: string }): string[] {
  const out = new Set<string>();
  for (const rule of deny) {
    if (rule.error || rule.toolName !== 'Read' || rule.specifier === undefined) continue;
    for (const p of patternsFor(rule, ctx)) out.add(p);
  }
  return [...out];
}

function patternsFor(rule: ParsedRule, ctx: { projectRoot: string; homeDir: string }): string[] {
  const spec = rule.specifier!.replace(/\/+$/, '');
  if (!spec) return [];
  const home = /^(~|\$HOME|\$\{HOME\})(\/|$)/.exec(spec);
  let abs: string | undefined;
  if (spec.startsWith('//')) abs = `/${spec.slice(2)}`;
  else if (home) abs = path.join(ctx.homeDir, spec.slice(home[0].length));
  else if (spec.startsWith('/')) abs = path.join(ruleAnchorRoot(rule.source, rule.sourcePath, ctx.projectRoot), spec.slice(1));
  else if (spec.startsWith('./') || spec.startsWith('../')) abs = path.resolve(ctx.projectRoot, spec);
  if (abs === undefined) {
    // Loose: any depth.
    const body = spec.startsWith('**/') ? spec : `**/${spec}`;
    return [body, `${body}/**`];
  }
  const globAt = abs.search(/[*?[{]/);
  const fixed = globAt === -1 ? abs : abs.slice(0, abs.lastIndexOf('/', globAt) + 1 || 1);
  if (!isInside(fixed.replace(/\/$/, '') || '/', ctx.projectRoot)) {
    // Anchored outside the project: only a pattern that reaches into it by `**` matters.
    if (fixed === '/' && abs.startsWith('/**/')) return [abs.slice(1), `${abs.slice(1)}/**`];
    return [];
  }
  const rel = path.relative(ctx.projectRoot, abs).split(path.sep).join('/');
  if (!rel) return ['**'];
  return [rel, `${rel}/**`];
}
