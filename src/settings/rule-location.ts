/**
 * Where a permission rule is written: its settings file and the line of its entry, so that a person
 * told "denied by Bash(rm *)" can open the file at the place. Files are read once per version.
 */
import { readFileSync, statSync } from 'node:fs';
import type { ParsedRule } from '../base/rule-parse.js';
import { readJsonText, type JsonText } from './json-text.js';

export interface RuleLocation {
  file: string;
  /** 1-based; absent when the entry cannot be found in the file as it is now. */
  line?: number;
}

const read = new Map<string, { mtimeMs: number; text: JsonText }>();

function parsed(file: string): JsonText | undefined {
  try {
    const mtimeMs = statSync(file).mtimeMs;
    const known = read.get(file);
    if (known && known.mtimeMs === mtimeMs) return known.text;
    const text = readJsonText(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { jsonc: true });
    read.set(file, { mtimeMs, text });
    return text;
  } catch {
    return undefined;
  }
}

/** The file and line of `rule` in its `list`; undefined for a rule that came from no file (flags, the session). */
export function ruleLocation(rule: ParsedRule, list: 'allow' | 'ask' | 'deny'): RuleLocation | undefined {
  if (!rule.sourcePath) return undefined;
  const json = parsed(rule.sourcePath);
  const entries = (json?.value as { permissions?: Record<string, unknown> } | undefined)?.permissions?.[list];
  const index = Array.isArray(entries) ? entries.indexOf(rule.raw) : -1;
  if (!json || index < 0) return { file: rule.sourcePath };
  return { file: rule.sourcePath, line: json.at(['permissions', list, index]).line };
}
