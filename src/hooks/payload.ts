/** Parts of an event's JSON that take more than a field: PermissionRequest's suggestions. */
import { parseRule } from '../base/rule-parse.js';

/** Rule strings as Claude Code's `permission_suggestions` entries. */
export function suggestionsPayload(suggestions: string[]): unknown[] {
  return suggestions.map((s) => {
    const rule = parseRule(s, 'session');
    const entry = rule.specifier === undefined ? { toolName: rule.toolName } : { toolName: rule.toolName, ruleContent: rule.specifier };
    return { type: 'addRules', rules: [entry], behavior: 'allow', destination: 'localSettings' };
  });
}
