/**
 * Bash permission rules, as Claude Code writes them (reference/claude-code.md §2.3–2.4):
 *   `Bash(npm run build)`    the exact command
 *   `Bash(npm run test:*)`   ≡ `Bash(npm run test *)`: the prefix, then nothing or a space and anything
 *   `Bash(git * main)`       `*` anywhere spans any text, spaces included
 *   `Bash(run_in_background:true)`, `Bash(dangerouslyDisableSandbox:true)`: parameter rules (deny/ask)
 *
 * Deny and ask rules match when ANY command the line runs could match, holes (what is only known at
 * run time) counting as any text; a line whose effect cannot be read matches the first deny/ask rule
 * (fail closed). Allow rules match only when EVERY command is covered for every possible value of its
 * holes, nothing runs code it is given, and nothing is unreadable.
 */
import { wildcardMatch } from '../../permissions/wildcard.js';
import type { ParsedRule } from '../../base/rule-parse.js';
import type { PermissionContext, RuleList } from '../../base/tool.js';
import { protectedReason } from '../../permissions/protected.js';
import { isInWorkspace } from '../../base/paths.js';
import type { Analysis, Leaf } from './analysis.js';
import type { SimpleCommand } from './parse.js';
import { isReadOnlyLeaf } from './classify.js';
import { criticalRemoval, readsOutsideWorkspace } from './file-access.js';
import { resolvePathWord } from './read-only.js';
import { scriptsRun } from './script-files.js';
import { HOLE } from './words.js';
import { DANGEROUS_VARS } from './wrappers.js';

export interface BashRuleInput {
  command: string;
  run_in_background?: boolean | undefined;
  dangerouslyDisableSandbox?: boolean | undefined;
}

interface CompiledRule {
  /** Rule text with HOLE for each unquoted `*`. */
  base: string;
  /** Trailing `:*` or ` *`: the base alone, or the base, a space and anything. */
  prefix: boolean;
}

const PARAM_RULE = /^(run_in_background|dangerouslyDisableSandbox):(.*)$/;
/** Claude Code always asks for very long commands. */
export const MAX_ALLOWABLE_LENGTH = 10_000;
const compiled = new Map<string, CompiledRule>();

/** The rule text as a pattern: quotes and escapes resolved, unquoted `*` a hole, spaces collapsed. */
export function compileRule(specifier: string): CompiledRule {
  const hit = compiled.get(specifier);
  if (hit) return hit;
  let text = specifier.trim();
  let prefix = false;
  if (text.endsWith(':*')) {
    prefix = true;
    text = text.slice(0, -2);
  }
  let base = tokenizeRule(text);
  if (base.endsWith(` ${HOLE}`)) {
    prefix = true;
    base = base.slice(0, -2);
  }
  const rule = { base, prefix };
  compiled.set(specifier, rule);
  return rule;
}

function tokenizeRule(text: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && /["\\$`]/.test(text[i + 1] ?? '')) out += text[++i];
      else out += c;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < text.length) out += text[++i];
    else if (c === '*') out += out.endsWith(HOLE) ? '' : HOLE;
    else if (/\s/.test(c)) out += out === '' || out.endsWith(' ') ? '' : ' ';
    else out += c;
  }
  return out.trimEnd();
}

/** Does `text` match `pattern` (HOLE = any text)? */
export function globMatch(pattern: string, text: string): boolean {
  return wildcardMatch(pattern, text, HOLE);
}

function ruleMatchesText(rule: CompiledRule, text: string): boolean {
  return globMatch(rule.base, text) || (rule.prefix && globMatch(`${rule.base} ${HOLE}`, text));
}

/** Every value the command text may take is matched by the rule (holes become a character no rule spells). */
export function ruleCovers(rule: CompiledRule, pattern: string): boolean {
  return ruleMatchesText(rule, pattern.split(HOLE).join('\u0001'));
}

/** Some value the command text may take is matched by the rule. */
export function ruleMayMatch(rule: CompiledRule, pattern: string): boolean {
  if (!pattern.includes(HOLE)) return ruleMatchesText(rule, pattern);
  return globsIntersect(rule.base, pattern) || (rule.prefix && globsIntersect(`${rule.base} ${HOLE}`, pattern));
}

/** Is there a string matched by both patterns, HOLE in either meaning any text? */
export function globsIntersect(a: string, b: string): boolean {
  const n = a.length;
  const m = b.length;
  let next = new Uint8Array(m + 1);
  let cur = new Uint8Array(m + 1);
  for (let i = n; i >= 0; i--) {
    for (let j = m; j >= 0; j--) {
      if (i === n && j === m) cur[j] = 1;
      else if (i < n && a[i] === HOLE) cur[j] = next[j]! || (j < m && cur[j + 1]!) ? 1 : 0;
      else if (j < m && b[j] === HOLE) cur[j] = cur[j + 1]! || (i < n && next[j]!) ? 1 : 0;
      else cur[j] = i < n && j < m && a[i] === b[j] && next[j + 1]! ? 1 : 0;
    }
    [next, cur] = [cur, next];
  }
  return next[0] === 1;
}

/** Tool.matchRules for Bash. `rules` all name Bash and carry a specifier. */
export function matchBashRules(
  input: BashRuleInput,
  analysis: Analysis | undefined,
  rules: ParsedRule[],
  list: RuleList,
  ctx: PermissionContext,
): ParsedRule | undefined {
  const params = rules.filter((r) => PARAM_RULE.test(r.specifier ?? ''));
  const commands = rules.filter((r) => !PARAM_RULE.test(r.specifier ?? ''));
  if (list === 'allow') return matchAllow(input, analysis, commands, ctx);
  const byParam = params.find((r) => paramMatches(r.specifier!, input));
  if (byParam) return byParam;
  if (!commands.length) return undefined;
  // Fail closed: what cannot be read cannot be shown not to match.
  if (!analysis || analysis.problems.length) return commands[0];
  const whole = input.command.trim().replace(/\s+/g, ' ');
  const scripts = scriptsRun(analysis, ctx);
  if (scripts.problem || scripts.analyses.some((s) => s.problems.length)) return commands[0];
  const leaves = [analysis, ...scripts.analyses].flatMap((a) => a.leaves);
  for (const rule of commands) {
    const c = compileRule(rule.specifier!);
    if (ruleMatchesText(c, whole)) return rule;
    if (leaves.some((leaf) => leaf.denyPatterns.some((p) => ruleMayMatch(c, p)))) return rule;
  }
  return undefined;
}

function paramMatches(specifier: string, input: BashRuleInput): boolean {
  const [, key, want] = PARAM_RULE.exec(specifier)!;
  const value = String(input[key as 'run_in_background' | 'dangerouslyDisableSandbox'] ?? false);
  const re = new RegExp(
    `^${want!
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(value);
}

function matchAllow(input: BashRuleInput, analysis: Analysis | undefined, rules: ParsedRule[], ctx: PermissionContext): ParsedRule | undefined {
  if (!analysis || !rules.length || !isAllowable(input, analysis, ctx)) return undefined;
  let first: ParsedRule | undefined;
  const uncovered: Leaf[] = [];
  for (const leaf of analysis.leaves) {
    if (leaf.denyOnly) continue;
    const rule = allowRuleFor(leaf, rules);
    if (rule) first ??= rule;
    else if (isReadOnlyLeaf(leaf)) uncovered.push(leaf);
    else return undefined;
  }
  // A read-only command beside the allowed one (`npm test $(cat ~/.ssh/id_rsa)`, `… && cat /etc/x`) is
  // approved only as it would be alone: reading inside the workspace.
  if (first && readsOutsideWorkspace(analysis, ctx, uncovered).length) return undefined;
  return first;
}

function allowRuleFor(leaf: Leaf, rules: ParsedRule[]): ParsedRule | undefined {
  if (leaf.allowPattern === undefined) return undefined;
  return rules.find((r) => ruleCovers(compileRule(r.specifier!), leaf.allowPattern!) && coversAsWritten(r.specifier!, leaf));
}

/**
 * Claude Code compares an allow rule with the command as written: `Bash(foo x:*)` approves neither
 * `foo "x"` nor `foo \x`, and `Bash(foo "a b":*)` only `foo "a b"`. The words keep their quotes here
 * (the resolved comparison above still has to hold).
 */
function coversAsWritten(specifier: string, leaf: Leaf): boolean {
  let text = specifier.trim();
  const prefix = text.endsWith(':*');
  if (prefix) text = text.slice(0, -2);
  const written = leaf.words.map((w) => w.raw).join(' ');
  const pattern = text.replace(/\s+/g, ' ');
  if (wildcardMatch(pattern, written)) return true;
  // `npm test:*` and `npm test *` also approve `npm test` alone.
  const base = prefix ? pattern : pattern.endsWith(' *') ? pattern.slice(0, -2) : undefined;
  return base !== undefined && (wildcardMatch(base, written) || wildcardMatch(`${base} *`, written));
}

const SHAPES = {
  substitution: 'a nested command ($(…), `…` or <(…))',
  subshell: 'a subshell ( … )',
  group: 'a group in braces { …; }',
  background: 'a command sent to the background with &',
} as const;

/**
 * What in the line's shape no rule approves and no read-only verdict covers, as in Claude Code: a
 * command substitution, a subshell, a brace group, a background `&`. Undefined when none.
 */
export function unapprovableShape(analysis: Analysis): string | undefined {
  for (const c of analysis.commands) {
    if (c.inSubstitution && !literalHeredocText(c)) return SHAPES.substitution;
    if (c.grouped) return SHAPES[c.grouped];
  }
  return undefined;
}

/**
 * `$(cat <<'EOF' … EOF)`: a substitution that only gives a here-document's text back, unexpanded (the
 * way commit messages are written). Claude Code's rules approve a line holding it, as they would the
 * text written in place.
 */
function literalHeredocText(c: SimpleCommand): boolean {
  const [name, ...args] = c.words;
  return (
    name?.value === 'cat' &&
    name.literal &&
    !args.length &&
    !c.assignments.length &&
    c.redirects.length === 1 &&
    c.redirects[0]!.kind === 'heredoc' &&
    c.redirects[0]!.bodyLiteral === true
  );
}

/** Conditions under which no allow rule may approve the line. */
function isAllowable(input: BashRuleInput, analysis: Analysis, ctx: PermissionContext): boolean {
  if (input.dangerouslyDisableSandbox) return false;
  if (input.command.length > MAX_ALLOWABLE_LENGTH || analysis.problems.length) return false;
  if (analysis.assigned.some((v) => DANGEROUS_VARS.has(v))) return false;
  if (analysis.leaves.some((l) => !l.denyOnly && l.allowPattern === undefined)) return false;
  if (criticalRemoval(analysis, ctx)) return false;
  if (unapprovableShape(analysis)) return false;
  return analysis.writes.every((w) => {
    if (ctx.permissionMode !== 'acceptEdits') return false;
    const target = resolvePathWord(w, ctx.cwd, ctx.homeDir);
    return target !== undefined && w.literal && isInWorkspace(target, ctx) && !protectedReason(target, ctx);
  });
}
