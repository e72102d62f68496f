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
import type { ParsedRule } from '../base/rule-parse.js';
import type { PermissionContext, PermissionPaths, RuleList } from '../base/tool.js';
import type { PermissionRules } from '../base/permission-types.js';
import { deniedByInode } from './denied-inodes.js';
import { compilePathRule } from './path-pattern.js';
import { pathForms } from './real-path.js';

type AnchorContext = Pick<PermissionContext, 'cwd' | 'projectRoot' | 'homeDir'>;

/** The first rule in `rules` whose path pattern covers the call's paths (for allow: all of them; else: any). */
export function matchPathRules(paths: PermissionPaths, rules: ParsedRule[], list: RuleList, ctx: PermissionContext): ParsedRule | undefined {
  const usable = rules.filter((r) => r.specifier !== undefined && !r.error);
  // No rule can cover anything: the paths' real locations (a realpath and a stat each) are not needed.
  if (paths.paths.length === 0 || usable.length === 0) return undefined;
  const forms = paths.paths.flatMap(pathForms);
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
export function deniedPathRule(absPath: string, access: 'read' | 'write', rules: PermissionRules, ctx: PermissionContext): ParsedRule | undefined {
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
