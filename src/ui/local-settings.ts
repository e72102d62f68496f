/**
 * Removing a rule from the personal project settings, `.claude/settings.local.json` (/permissions
 * remove), keeping every other key, and the file's comments and layout (JSONC, changed by edits).
 * Adding goes through settings/persist.ts. A file that cannot be read as JSONC is never overwritten:
 * the change is refused with the place and the reason.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { noteOwnWrite } from '../settings/persist.js';
import path from 'node:path';
import { editJsonc } from '../settings/jsonc-edit.js';
import { readJsonText } from '../settings/json-text.js';
import { localSettingsPath } from '../settings/paths.js';

export type RuleListName = 'allow' | 'ask' | 'deny';

export type SaveResult = { ok: true; file: string; changed: boolean } | { ok: false; file: string; error: string };

function readObject(file: string): { data: Record<string, unknown>; text: string; bom: string } | string {
  let text: string;
  let bom = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { data: {}, text: '', bom };
  }
  if (text.startsWith('\uFEFF')) [bom, text] = ['\uFEFF', text.slice(1)];
  const json = readJsonText(text, { jsonc: true });
  if (json.problem) return `${file}:${json.problem.line}:${json.problem.column}: ${json.problem.message}; fix it by hand first`;
  if (json.value === undefined) return { data: {}, text, bom };
  const v = json.value;
  return v && typeof v === 'object' && !Array.isArray(v) ? { data: v as Record<string, unknown>, text, bom } : `${file} does not hold a JSON object`;
}

function update(projectRoot: string, list: RuleListName, change: (rules: string[]) => string[]): SaveResult {
  const file = localSettingsPath(projectRoot);
  const read = readObject(file);
  if (typeof read === 'string') return { ok: false, file, error: read };
  const { data, text, bom } = read;
  const perms =
    data.permissions && typeof data.permissions === 'object' && !Array.isArray(data.permissions) ? { ...(data.permissions as Record<string, unknown>) } : {};
  const before = Array.isArray(perms[list]) ? (perms[list] as unknown[]).filter((r): r is string => typeof r === 'string') : [];
  const after = change(before);
  if (after.length === before.length && after.every((r, i) => r === before[i])) return { ok: true, file, changed: false };
  perms[list] = after;
  const next = { ...data, permissions: perms };
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    const content = text.trim() ? `${bom}${editJsonc(text, data, next, 2)}` : `${JSON.stringify(next, null, 2)}\n`;
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
