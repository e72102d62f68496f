/** How far a "don't ask again" rule reaches, shown before it is saved: the past calls it would have allowed, and what it would never allow. */
import { pastCallsAllowedBy, type Coverage } from '../core/policy/coverage.js';
import { neverAllowedBy, neverAllowedText } from '../core/policy/never-allowed.js';

export async function ruleReach(
  where: { cwd: string; env: Record<string, string | undefined> },
  toolName: string,
  rules: readonly string[],
): Promise<Coverage> {
  const [past, never] = await Promise.all([pastCallsAllowedBy(where, toolName, rules), neverAllowedBy(where, toolName, rules).catch(() => [])]);
  const line = neverAllowedText(never, rules);
  return line ? { ...past, never: line } : past;
}
