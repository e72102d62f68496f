/**
 * Which hooks apply (reference/claude-code.md §4.2): a group's `matcher` — `*`, empty or absent for
 * everything; only names and `|`/`,` separators for exact names; anything else an unanchored regular
 * expression — and a handler's optional `if` rule (`Bash(git *)`), checked with the same matchers the
 * permission gate uses.
 */
import { matchPathRules } from '../permissions/path-rules.js';
import { parseRule, ruleNamesTool } from '../base/rule-parse.js';
import type { PermissionContext, Tool } from '../base/tool.js';
import { isPlainMatcher } from '../settings/hooks.js';

export function matcherMatches(matcher: string | undefined, value: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (isPlainMatcher(matcher)) {
    return matcher
      .split(/[|,]/)
      .map((s) => s.trim())
      .filter(Boolean)
      .includes(value);
  }
  try {
    return new RegExp(matcher).test(value);
  } catch {
    return false;
  }
}

/**
 * Does a handler's `if` rule cover this call? Without the tool object (or a tool that cannot judge
 * the specifier), the hook runs: running a guard hook too often is the safe side.
 */
export function ifRuleMatches(
  ruleText: string,
  call: { toolName: string; toolInput: unknown },
  tool: Tool | undefined,
  pctx: PermissionContext | undefined,
): boolean {
  const rule = parseRule(ruleText, 'session');
  if (rule.error) return true;
  if (!ruleNamesTool(rule.toolName, call.toolName, tool?.aliases)) return false;
  if (rule.specifier === undefined || !tool || !pctx) return true;
  try {
    const paths = tool.permissionPaths?.(call.toolInput, pctx);
    if (paths && !paths.denyOnly) return matchPathRules(paths, [rule], 'deny', pctx) !== undefined;
    if (tool.matchRules) return tool.matchRules(call.toolInput, [rule], 'deny', pctx) !== undefined;
  } catch {
    return true;
  }
  return true;
}
