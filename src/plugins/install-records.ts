/**
 * Claude Code's record of installed plugins, `<config dir>/plugins/installed_plugins.json`, read and
 * written as it keeps it, so either tool sees the other's installs:
 *   {"version": 2, "plugins": {"name@marketplace": [{"scope": "user" | "project" | "local",
 *     "projectPath"?: "/abs/project", "installPath": "<plugins>/cache/<marketplace>/<name>/<version>",
 *     "version", "installedAt", "lastUpdated", "gitCommitSha"?}]}}
 * One record per scope (and project); a version 1 file (one record per plugin) is read as a list of one.
 * Writes go through settings/persist.ts: atomic, queued, everything else in the file kept.
 */
import path from 'node:path';
import { readSettingsFile } from '../settings/read.js';
import { updateSettingsFile } from '../settings/persist.js';
import { isObject } from '../settings/validate.js';

export type InstallScope = 'user' | 'project' | 'local';

export interface InstallRecord {
  scope: InstallScope;
  projectPath?: string;
  installPath: string;
  version: string;
  installedAt?: string;
  lastUpdated?: string;
  gitCommitSha?: string;
}

export function recordsFile(pluginsDir: string): string {
  return path.join(pluginsDir, 'installed_plugins.json');
}

/** Every record, by plugin id; records without an installPath are left out. */
export function readRecords(pluginsDir: string): Record<string, InstallRecord[]> {
  const read = readSettingsFile(recordsFile(pluginsDir));
  const plugins = read.status === 'loaded' && isObject(read.data.plugins) ? read.data.plugins : {};
  const out: Record<string, InstallRecord[]> = {};
  for (const [id, raw] of Object.entries(plugins)) {
    const list = (Array.isArray(raw) ? raw : [raw]).filter((r): r is InstallRecord => isObject(r) && typeof r.installPath === 'string');
    if (list.length) out[id] = list.map((r) => ({ ...r, scope: r.scope === 'project' || r.scope === 'local' ? r.scope : 'user' }));
  }
  return out;
}

/** Whether a record is the one for this scope (and, for project and local, this project). */
export function recordMatches(r: InstallRecord, scope: InstallScope, projectPath: string | undefined): boolean {
  return r.scope === scope && (scope === 'user' || r.projectPath === projectPath);
}

/** Puts the record for its scope in place of the one there (keeping when it was first installed). */
export async function putRecord(pluginsDir: string, id: string, record: InstallRecord): Promise<void> {
  const now = new Date().toISOString();
  await updateSettingsFile(recordsFile(pluginsDir), (data) => {
    const plugins = pluginsOf(data);
    const list = plugins[id] ?? [];
    const old = list.find((r) => recordMatches(r, record.scope, record.projectPath));
    const fresh = { ...record, installedAt: old?.installedAt ?? now, lastUpdated: now };
    plugins[id] = old ? list.map((r) => (r === old ? fresh : r)) : [...list, fresh];
    return true;
  });
}

/** Takes out the record of this scope; returns it, or undefined when there was none. */
export async function dropRecord(pluginsDir: string, id: string, scope: InstallScope, projectPath: string | undefined): Promise<InstallRecord | undefined> {
  let dropped: InstallRecord | undefined;
  await updateSettingsFile(recordsFile(pluginsDir), (data) => {
    const plugins = pluginsOf(data);
    const list = plugins[id] ?? [];
    dropped = list.find((r) => recordMatches(r, scope, projectPath));
    if (!dropped) return false;
    const rest = list.filter((r) => r !== dropped);
    if (rest.length) plugins[id] = rest;
    else delete plugins[id];
    return true;
  });
  return dropped;
}

/** The `plugins` map of the file, made version 2 (lists of records) in place. */
function pluginsOf(data: Record<string, unknown>): Record<string, InstallRecord[]> {
  data.version = 2;
  if (!isObject(data.plugins)) data.plugins = {};
  const plugins = data.plugins as Record<string, unknown>;
  for (const [id, raw] of Object.entries(plugins)) if (!Array.isArray(raw)) plugins[id] = isObject(raw) ? [{ scope: 'user', ...raw }] : [];
  return plugins as Record<string, InstallRecord[]>;
}
