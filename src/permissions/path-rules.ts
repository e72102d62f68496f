/**
 * Read(...) / Edit(...) path rules with gitignore-style patterns and Claude Code's anchors.
 * Placeholder until the settings work lands: matches nothing.
 */
import type { ParsedRule } from './rule-parse.js';
import type { PermissionContext, PermissionPaths, RuleList } from '../tools/tool.js';

/** The first rule in `rules` whose path pattern covers the call's paths (for allow: all of them; else: any). */
export function matchPathRules(
  _paths: PermissionPaths,
  _rules: ParsedRule[],
  _list: RuleList,
  _ctx: PermissionContext,
): ParsedRule | undefined {
  return undefined;
}
