/**
 * wicket's own copies of the project: the shadow repositories of the snapshots
 * (`<wicket home>/snapshots`) keep every file of the work tree, the denied ones too, where
 * `git log -p` or a look at the objects would show them. While a Read deny rule holds, that folder
 * is denied as well — to every tool, to Bash's readers and to the sandbox — as if a rule named it.
 */
import path from 'node:path';
import { parseRule, type ParsedRule } from '../base/rule-parse.js';

/** The folder of the snapshots' shadow repositories (session/shadow-git.ts keeps them there). */
export function snapshotsFolder(wicketHome: string): string {
  return path.join(wicketHome, 'snapshots');
}

/** The rule to add to `deny`: one Read rule for the snapshots, when a Read rule with a path is there and it is not. */
export function ownStateDenyRules(deny: readonly ParsedRule[], wicketHome: string): ParsedRule[] {
  const rule = parseRule(`Read(/${snapshotsFolder(path.resolve(wicketHome))}/**)`, 'session');
  const needed = deny.some((r) => r.toolName === 'Read' && r.specifier !== undefined && !r.error);
  return needed && !deny.some((r) => r.raw === rule.raw) ? [rule] : [];
}
