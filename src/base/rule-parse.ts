/**
 * Permission rule strings, as Claude Code writes them: `Tool`, `Tool(specifier)`, `mcp__server`,
 * `mcp__server__tool`, tool-name globs such as `*` or `mcp__*`. Parsing never throws: a malformed
 * rule comes back with `error` set so the loader can warn and skip it.
 */
export type RuleSource = 'managed' | 'cli' | 'localSettings' | 'projectSettings' | 'userSettings' | 'session';

export interface ParsedRule {
  /** The rule exactly as written. */
  raw: string;
  /** Tool name or tool-name glob (`Bash`, `mcp__github__*`, `*`). */
  toolName: string;
  /** The text inside the parentheses; undefined for a bare rule. `Bash(*)` and `Bash()` count as bare. */
  specifier?: string;
  /** Where it came from, for traces and /permissions. */
  source: RuleSource;
  /** File the rule came from, when any; `/path` anchors resolve relative to it. */
  sourcePath?: string;
  /** Set when the rule cannot be used. */
  error?: string;
  /**
   * Written loosely: spaces around the rule, before `(` or inside the parentheses' edges (`Bash( ls )`,
   * `Bash(ls :*)`), an empty `Tool()`, or a specifier on an MCP tool. Claude Code matches such a rule
   * against nothing; wicket still applies it as a deny or ask rule, never as an allow rule.
   */
  loose?: true;
}

/**
 * Rules written as a list (`--allowedTools`, a command file's `allowed-tools`): split at commas and
 * spaces outside parentheses, so `Bash(git log *), Read` is two rules.
 */
export function splitRuleList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    let depth = 0;
    let cur = '';
    for (const ch of v) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || ch === ' ')) {
        if (cur.trim()) out.push(cur.trim());
        cur = '';
        continue;
      }
      cur += ch;
    }
    if (cur.trim()) out.push(cur.trim());
  }
  return out;
}

export function parseRule(raw: string, source: RuleSource, sourcePath?: string): ParsedRule {
  const text = raw.trim();
  const base = { raw, source, ...(sourcePath ? { sourcePath } : {}) };
  if (!text) return { ...base, toolName: '', error: 'empty rule' };
  const open = text.indexOf('(');
  if (open === -1) {
    if (text.includes(')')) return { ...base, toolName: text, error: 'unbalanced parenthesis' };
    return { ...base, toolName: text, ...(raw !== text ? { loose: true as const } : {}) };
  }
  if (!text.endsWith(')')) return { ...base, toolName: text.slice(0, open), error: 'missing closing parenthesis' };
  const toolName = text.slice(0, open).trim();
  const specifier = text.slice(open + 1, -1);
  if (!toolName) return { ...base, toolName, error: 'missing tool name before "("' };
  const loose = isLoose(raw, toolName, specifier) ? { loose: true as const } : {};
  if (specifier.trim() === '' || specifier.trim() === '*') return { ...base, toolName, ...loose };
  return { ...base, toolName, specifier, ...loose };
}

function isLoose(raw: string, toolName: string, specifier: string): boolean {
  if (raw !== raw.trim() || !raw.startsWith(`${toolName}(`)) return true;
  if (specifier === '' || specifier !== specifier.trim() || /\s:\*$/.test(specifier)) return true;
  return toolName.startsWith('mcp__');
}

/** Formats a rule back to its canonical string. */
export function formatRule(rule: Pick<ParsedRule, 'toolName' | 'specifier'>): string {
  return rule.specifier === undefined ? rule.toolName : `${rule.toolName}(${rule.specifier})`;
}

/**
 * Does the tool-name part of a rule name this tool? Handles exact names, aliases, `mcp__server`
 * (all of that server's tools) and `*` globs.
 */
export function ruleNamesTool(ruleTool: string, toolName: string, aliases: readonly string[] = []): boolean {
  const names = [toolName, ...aliases];
  if (names.includes(ruleTool)) return true;
  if (ruleTool.startsWith('mcp__') && !ruleTool.slice(5).includes('__') && !ruleTool.includes('*')) {
    return toolName.startsWith(`${ruleTool}__`);
  }
  if (ruleTool.includes('*')) {
    const re = new RegExp(`^${ruleTool.split('*').map(escapeRegExp).join('.*')}$`);
    return names.some((n) => re.test(n));
  }
  return false;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
