/**
 * `permissions.allow / ask / deny` of one settings source → parsed rules plus warnings
 * (reference/claude-code.md §2.2–§2.3, corpus/malformed.tsv kinds rule-syntax, unknown-tool,
 * ineffective-rule, conflicting-rule, duplicate-rule). Warnings are grouped per list and kind, so a file
 * with sixteen rules written the same wrong way gets one line, not sixteen.
 */
import { parseRule, type ParsedRule, type RuleSource } from '../base/rule-parse.js';
import { emptyRules, type PermissionRules } from '../base/permission-types.js';

export const KNOWN_TOOL_NAMES: readonly string[] = [
  'Read',
  'Edit',
  'Write',
  'NotebookEdit',
  'Bash',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'TaskOutput',
  'TaskStop',
  'BashOutput',
  'KillShell',
  'KillBash',
  'TodoWrite',
  'Agent',
  'Task',
  'ExitPlanMode',
  'EnterPlanMode',
  'NotebookRead',
  'LS',
  'MultiEdit',
  'Skill',
  'SlashCommand',
  'AskUserQuestion',
  'ToolSearch',
  'TaskCreate',
  'TaskUpdate',
  'TaskGet',
  'TaskList',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'Cd',
  'PowerShell',
];

/** Path rules on these tools are accepted by Claude Code but never consulted. */
const PATHLESS_FILE_TOOLS = ['Write', 'Glob', 'Grep', 'MultiEdit', 'NotebookRead', 'NotebookEdit', 'LS'];

const LISTS = ['allow', 'ask', 'deny'] as const;
type ListName = (typeof LISTS)[number];

export interface CollectedRules {
  rules: PermissionRules;
  warnings: string[];
  /** With `strict`: deny and ask entries that cannot be read as rules, by JSON path (never left out quietly). */
  problems: RuleProblem[];
}

export interface RuleProblem {
  path: Array<string | number>;
  message: string;
  hint?: string;
}

/** A tool-name glob in an allow list only counts after a literal `mcp__server__` prefix. */
function allowGlobProblem(toolName: string): boolean {
  if (!toolName.includes('*')) return false;
  return !/^mcp__[^*_][^*]*?__/.test(toolName);
}

export function isKnownToolName(name: string): boolean {
  if (KNOWN_TOOL_NAMES.includes(name)) return true;
  if (name.startsWith('mcp__')) return true;
  return name.includes('*');
}

/**
 * Collects one source's rules. `perms` is the raw `permissions` object (already known to be an object).
 * `strict` (a settings file): a deny or ask entry that is not a string or cannot be parsed is a
 * problem, not a warning, since leaving it out would let through what it refuses; allow entries
 * that cannot be read are left out with a warning (that only asks more).
 */
export function collectRules(
  perms: Record<string, unknown>,
  source: RuleSource,
  sourcePath: string | undefined,
  label: string,
  opts: { strict?: boolean } = {},
): CollectedRules {
  const out: CollectedRules = { rules: emptyRules(), warnings: [], problems: [] };
  for (const list of LISTS) {
    const raw = perms[list];
    if (raw === undefined) continue;
    if (!Array.isArray(raw)) {
      out.warnings.push(`${label}: permissions.${list} must be an array of rule strings, found ${describe(raw)}; ignored`);
      continue;
    }
    const strict = opts.strict === true && list !== 'allow' ? out.problems : undefined;
    out.rules[list] = collectList(raw, list, { source, sourcePath, where: `${label}: permissions.${list}` }, out.warnings, strict);
  }
  const denied = new Set(out.rules.deny.map((r) => r.raw.trim()));
  const both = [...new Set(out.rules.allow.filter((r) => denied.has(r.raw.trim())).map((r) => r.raw))];
  if (both.length) out.warnings.push(`${label}: ${count(both.length, 'rule')} appear in both allow and deny (deny wins): ${sample(both)}`);
  return out;
}

interface ListOrigin {
  source: RuleSource;
  sourcePath: string | undefined;
  where: string;
}

function collectList(raw: unknown[], list: ListName, origin: ListOrigin, warnings: string[], problems?: RuleProblem[]): ParsedRule[] {
  const groups = new Map<string, string[]>();
  const note = (kind: string, rule: string) => groups.set(kind, [...(groups.get(kind) ?? []), rule]);
  const seen = new Set<string>();
  const rules: ParsedRule[] = [];
  let duplicates = 0;
  raw.forEach((entry, i) => {
    const path = ['permissions', list, i];
    if (typeof entry !== 'string') {
      if (problems)
        problems.push({
          path,
          message: `permissions.${list}[${i}] is ${describe(entry)}, not a rule string`,
          hint: 'write each rule as a string, such as "Bash(rm:*)"',
        });
      else note('entries that are not strings (ignored)', JSON.stringify(entry) ?? String(entry));
      return;
    }
    if (seen.has(entry)) {
      duplicates++;
      return;
    }
    seen.add(entry);
    const rule = parseRule(entry, origin.source, origin.sourcePath);
    if (rule.error && problems) {
      problems.push(unreadableRule(entry, rule.error, list, i));
      return;
    }
    rules.push(checkRule(rule, entry, list, origin, note));
  });
  for (const [kind, entries] of groups) warnings.push(`${origin.where}: ${count(entries.length, 'rule')} ${kind}: ${sample(entries)}`);
  if (duplicates) warnings.push(`${origin.where}: ${duplicates} duplicate ${duplicates === 1 ? 'entry' : 'entries'} (kept once)`);
  return rules;
}

function unreadableRule(entry: string, error: string, list: ListName, i: number): RuleProblem {
  const after = textAfterParenthesis(entry);
  return {
    path: ['permissions', list, i],
    message: `permissions.${list}[${i}] ${JSON.stringify(entry)} cannot be read as a rule: ${after ? 'text after the closing parenthesis' : error}`,
    hint: after
      ? `end the rule at its closing parenthesis: ${JSON.stringify(entry.trim().replace(/\)\s*\S+$/, ')'))}`
      : 'write it as Tool or Tool(specifier), such as "Bash(rm:*)" or "Read(./.env)"',
  };
}

function textAfterParenthesis(entry: string): boolean {
  return /\)\s*\S+$/.test(entry.trim());
}

function checkRule(parsed: ParsedRule, entry: string, list: ListName, origin: ListOrigin, note: (kind: string, rule: string) => void): ParsedRule {
  const { source, sourcePath } = origin;
  let rule = parsed;
  if (rule.error) {
    const kind = textAfterParenthesis(entry) ? 'with text after the closing parenthesis (ignored)' : `that cannot be parsed: ${rule.error} (ignored)`;
    note(kind, entry);
    return rule;
  }
  if (list === 'allow' && rule.loose) note('written loosely, which Claude Code never matches (approves nothing)', entry);
  if (rule.specifier !== undefined && rule.specifier !== rule.specifier.trim()) {
    if (list !== 'allow') note('with spaces just inside the parentheses (trimmed)', entry);
    const trimmed = rule.specifier.trim();
    const base = { raw: rule.raw, toolName: rule.toolName, source, ...(sourcePath ? { sourcePath } : {}), ...(rule.loose ? { loose: rule.loose } : {}) };
    rule = trimmed === '*' ? base : { ...rule, specifier: trimmed };
  }
  if (entry.includes('\n')) note('spanning several lines (each matches only that exact multi-line command)', entry);
  if (!isKnownToolName(rule.toolName)) note(`with unknown tool name "${rule.toolName}" (never matches a built-in tool)`, entry);
  if (list === 'allow' && allowGlobProblem(rule.toolName)) {
    note('with a tool-name glob, honoured only in deny/ask (ignored)', entry);
    return { ...rule, error: 'tool-name globs are honoured only in deny and ask lists' };
  }
  if (rule.specifier !== undefined && PATHLESS_FILE_TOOLS.includes(rule.toolName)) {
    note(`with a path rule on ${rule.toolName} (only Read(...)/Edit(...) path rules are consulted; never matches)`, entry);
  }
  return rule;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function sample(entries: string[]): string {
  const shown = entries.slice(0, 3).map((e) => JSON.stringify(e.length > 80 ? `${e.slice(0, 77)}...` : e));
  return shown.join(', ') + (entries.length > 3 ? `, and ${entries.length - 3} more` : '');
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
