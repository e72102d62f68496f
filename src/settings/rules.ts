/**
 * `permissions.allow / ask / deny` of one settings source → parsed rules plus warnings
 * (reference/claude-code.md §2.2–§2.3, corpus/malformed.tsv kinds rule-syntax, unknown-tool,
 * ineffective-rule, conflicting-rule, duplicate-rule). Warnings are grouped per list and kind, so a file
 * with sixteen rules written the same wrong way gets one line, not sixteen.
 */
import { parseRule, type ParsedRule, type RuleSource } from '../base/rule-parse.js';
import { emptyRules, type PermissionRules } from '../base/permission-types.js';

export const KNOWN_TOOL_NAMES: readonly string[] = [
  'Read', 'Edit', 'Write', 'NotebookEdit', 'Bash', 'Glob', 'Grep', 'WebFetch', 'WebSearch', 'TaskOutput',
  'TaskStop', 'BashOutput', 'KillShell', 'KillBash', 'TodoWrite', 'Agent', 'Task', 'ExitPlanMode',
  'EnterPlanMode', 'NotebookRead', 'LS', 'MultiEdit', 'Skill', 'SlashCommand', 'AskUserQuestion',
  'ToolSearch', 'TaskCreate', 'TaskUpdate', 'TaskGet', 'TaskList', 'ListMcpResourcesTool',
  'ReadMcpResourceTool', 'Cd', 'PowerShell',
];

/** Path rules on these tools are accepted by Claude Code but never consulted. */
const PATHLESS_FILE_TOOLS = ['Write', 'Glob', 'Grep', 'MultiEdit', 'NotebookRead', 'NotebookEdit', 'LS'];

const LISTS = ['allow', 'ask', 'deny'] as const;
type ListName = (typeof LISTS)[number];

export interface CollectedRules {
  rules: PermissionRules;
  warnings: string[];
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

/** Collects one source's rules. `perms` is the raw `permissions` object (already known to be an object). */
export function collectRules(perms: Record<string, unknown>, source: RuleSource, sourcePath: string | undefined, label: string): CollectedRules {
  const out: CollectedRules = { rules: emptyRules(), warnings: [] };
  for (const list of LISTS) {
    const raw = perms[list];
    if (raw === undefined) continue;
    if (!Array.isArray(raw)) {
      out.warnings.push(`${label}: permissions.${list} must be an array of rule strings, found ${describe(raw)}; ignored`);
      continue;
    }
    out.rules[list] = collectList(raw, list, source, sourcePath, `${label}: permissions.${list}`, out.warnings);
  }
  const denied = new Set(out.rules.deny.map((r) => r.raw.trim()));
  const both = [...new Set(out.rules.allow.filter((r) => denied.has(r.raw.trim())).map((r) => r.raw))];
  if (both.length) out.warnings.push(`${label}: ${count(both.length, 'rule')} appear in both allow and deny (deny wins): ${sample(both)}`);
  return out;
}

function collectList(raw: unknown[], list: ListName, source: RuleSource, sourcePath: string | undefined, where: string, warnings: string[]): ParsedRule[] {
  const groups = new Map<string, string[]>();
  const note = (kind: string, rule: string) => groups.set(kind, [...(groups.get(kind) ?? []), rule]);
  const seen = new Set<string>();
  const rules: ParsedRule[] = [];
  let duplicates = 0;
  for (const entry of raw) {
    if (typeof entry !== 'string') {
      note('entries that are not strings (ignored)', JSON.stringify(entry) ?? String(entry));
      continue;
    }
    if (seen.has(entry)) {
      duplicates++;
      continue;
    }
    seen.add(entry);
    const rule = checkRule(entry, list, source, sourcePath, note);
    rules.push(rule);
  }
  for (const [kind, entries] of groups) warnings.push(`${where}: ${count(entries.length, 'rule')} ${kind}: ${sample(entries)}`);
  if (duplicates) warnings.push(`${where}: ${duplicates} duplicate ${duplicates === 1 ? 'entry' : 'entries'} (kept once)`);
  return rules;
}

function checkRule(entry: string, list: ListName, source: RuleSource, sourcePath: string | undefined, note: (kind: string, rule: string) => void): ParsedRule {
  let rule = parseRule(entry, source, sourcePath);
  if (rule.error) {
    const kind = /\)\s*\S+$/.test(entry.trim()) ? 'with text after the closing parenthesis (ignored)' : `that cannot be parsed: ${rule.error} (ignored)`;
    note(kind, entry);
    return rule;
  }
  if (rule.specifier !== undefined && rule.specifier !== rule.specifier.trim()) {
    note('with spaces just inside the parentheses (trimmed)', entry);
    const trimmed = rule.specifier.trim();
    rule = trimmed === '*' ? { raw: rule.raw, toolName: rule.toolName, source, ...(sourcePath ? { sourcePath } : {}) } : { ...rule, specifier: trimmed };
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
