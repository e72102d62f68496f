/**
 * Removing a rule from the personal project settings, `.claude/settings.local.json` (/permissions
 * remove), keeping every other key. Adding goes through settings/persist.ts. A file that is not valid
 * JSON is never overwritten: the change is refused with the reason.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { noteOwnWrite } from '../settings/persist.js';
import path from 'node:path';
import { localSettingsPath } from '../settings/paths.js';

export type RuleListName = 'allow' | 'ask' | 'deny';

export type SaveResult = { ok: true; file: string; changed: boolean } | { ok: false; file: string; error: string };

function readObject(file: string): Record<string, unknown> | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : `${file} does not hold a JSON object`;
  } catch (err) {
    return `${file} is not valid JSON (${(err as Error).message}); fix it by hand first`;
  }
}

function update(projectRoot: string, list: RuleListName, change: (rules: string[]) => string[]): SaveResult {
  const file = localSettingsPath(projectRoot);
  const data = readObject(file);
  if (typeof data === 'string') return { ok: false, file, error: data };
  const perms = data.permissions && typeof data.permissions === 'object' && !Array.isArray(data.permissions) ? { ...(data.permissions as Record<string, unknown>) } : {};
  const before = Array.isArray(perms[list]) ? (perms[list] as unknown[]).filter((r): r is string => typeof r === 'string') : [];
  const after = change(before);
  if (after.length === before.length && after.every((r, i) => r === before[i])) return { ok: true, file, changed: false };
  perms[list] = after;
  const next = { ...data, permissions: perms };
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    const content = `${JSON.stringify(next, null, 2)}\n`;
    noteOwnWrite(file, content);
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  } catch (err) {
    return { ok: false, file, error: `could not write ${file}: ${(err as Error).message}` };
  }
  return { ok: true, file, changed: true };
}

/** Removes a rule from permissions.<list>. */
export function removeLocalRule(projectRoot: string, list: RuleListName, rule: string): SaveResult {
  return update(projectRoot, list, (cur) => cur.filter((r) => r !== rule));
}
