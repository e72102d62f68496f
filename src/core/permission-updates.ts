/**
 * Permission updates as the Agent SDK hands them with an approval (`updatedPermissions`, and the
 * `permission_suggestions` wicket offers): `addRules` / `replaceRules` / `removeRules` (a list of
 * `{toolName, ruleContent?}`, a behavior), `setMode`, `addDirectories` / `removeDirectories`, each
 * with its destination. Applied as Claude Code applies them: at once to the session, and written to
 * the settings file the destination names (`userSettings`, `projectSettings`, `localSettings`);
 * `session` and `cliArg` last for the session only. An update that cannot be read is skipped with a
 * warning, a file that cannot be written leaves the change for this session, and bypassPermissions
 * is refused when the session may not enter it.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../base/errors.js';
import { parsePermissionMode, type PermissionMode } from '../base/permission-modes.js';
import type { PermissionEffects, PermissionRules } from '../base/permission-types.js';
import { parseRule, type RuleSource } from '../base/rule-parse.js';
import { localSettingsPath, projectSettingsPath, userSettingsPath } from '../settings/paths.js';
import { updateSettingsFile } from '../settings/persist.js';

/** The session's state the updates change. */
export interface PermissionTarget {
  permission: { mode: PermissionMode; rules: PermissionRules };
  additionalDirs: string[];
  projectRoot: string;
  cwd: string;
  homeDir: string;
  /** CLAUDE_CONFIG_DIR, when set (the user settings file lives there). */
  configDir?: string;
  /** Whether bypassPermissions may be entered (launched with it allowed, and not disabled by the settings). */
  canBypass: boolean;
}

const DESTINATIONS = ['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg'] as const;
type Destination = (typeof DESTINATIONS)[number];

/** Applies the updates in order; resolves once the files are written. Returns what happened, in words, and the warnings. */
export async function applyPermissionUpdates(updates: unknown, target: PermissionTarget): Promise<{ applied: string[]; warnings: string[] }> {
  const applied: string[] = [];
  const warnings: string[] = [];
  if (updates === undefined) return { applied, warnings };
  if (!Array.isArray(updates)) return { applied, warnings: ['updatedPermissions is not a list; ignored'] };
  for (const [i, u] of updates.entries()) {
    const where = `updatedPermissions[${i}]`;
    try {
      const done = await applyOne(u, target);
      if (done) applied.push(done);
      else warnings.push(`${where}: not a permission update wicket can read; ignored`);
    } catch (err) {
      warnings.push(`${where}: ${errorMessage(err)}`);
    }
  }
  return { applied, warnings };
}

async function applyOne(u: unknown, t: PermissionTarget): Promise<string | undefined> {
  if (typeof u !== 'object' || u === null) return undefined;
  const update = u as Record<string, unknown>;
  const destination = DESTINATIONS.find((d) => d === update.destination);
  if (!destination) return undefined;
  const file = settingsFile(destination, t);
  switch (update.type) {
    case 'addRules':
    case 'replaceRules':
    case 'removeRules':
      return changeRules(update.type, update, destination, file, t);
    case 'setMode':
      return setMode(update.mode, destination, file, t);
    case 'addDirectories':
    case 'removeDirectories':
      return changeDirectories(update.type === 'addDirectories', update.directories, destination, file, t);
    default:
      return undefined;
  }
}

async function changeRules(kind: string, u: Record<string, unknown>, destination: Destination, file: string | undefined, t: PermissionTarget) {
  const list = (['allow', 'ask', 'deny'] as const).find((b) => b === u.behavior);
  const raws = Array.isArray(u.rules) ? u.rules.map(ruleText) : undefined;
  if (!list || !raws || raws.some((r) => r === undefined)) return undefined;
  const rules = raws as string[];
  const source = ruleSource(destination);
  const held = t.permission.rules[list];
  const same = (raw: string) => (r: { raw: string; source: RuleSource }) => r.raw === raw && r.source === source;
  if (kind !== 'addRules') {
    // replaceRules drops every rule of that list from the destination; removeRules the ones named.
    for (let i = held.length - 1; i >= 0; i--) if (held[i]!.source === source && (kind === 'replaceRules' || rules.includes(held[i]!.raw))) held.splice(i, 1);
  }
  if (kind !== 'removeRules') for (const raw of rules) if (!held.some(same(raw))) held.push(parseRule(raw, source, file));
  if (file) {
    await updateSettingsFile(file, (data) => {
      const perms = objectAt(data, 'permissions', file);
      const before = Array.isArray(perms[list]) ? (perms[list] as unknown[]) : [];
      const next =
        kind === 'replaceRules'
          ? rules
          : kind === 'removeRules'
            ? before.filter((r) => !rules.includes(r as string))
            : [...before, ...rules.filter((r) => !before.includes(r))];
      if (JSON.stringify(next) === JSON.stringify(before)) return false;
      perms[list] = next;
      return true;
    });
  }
  const verb = kind === 'addRules' ? 'added' : kind === 'replaceRules' ? 'set' : 'removed';
  return `${list} rules ${verb} (${destination}): ${rules.join(', ') || '(none)'}`;
}

async function setMode(value: unknown, destination: Destination, file: string | undefined, t: PermissionTarget) {
  const mode = typeof value === 'string' ? parsePermissionMode(value) : undefined;
  if (!mode) return undefined;
  if (mode === 'bypassPermissions' && !t.canBypass) throw new Error('bypassPermissions mode was not allowed when this session started; the mode is unchanged');
  t.permission.mode = mode;
  if (file) await updateSettingsFile(file, (data) => ((objectAt(data, 'permissions', file).defaultMode = mode), true));
  return `mode ${mode} (${destination})`;
}

async function changeDirectories(add: boolean, value: unknown, destination: Destination, file: string | undefined, t: PermissionTarget) {
  if (!Array.isArray(value) || !value.every((d) => typeof d === 'string' && d !== '')) return undefined;
  const dirs = (value as string[]).map((d) => realOrSelf(path.resolve(t.cwd, d.replace(/^~(?=$|\/)/, t.homeDir))));
  const kept = add ? [...t.additionalDirs, ...dirs.filter((d) => !t.additionalDirs.includes(d))] : t.additionalDirs.filter((d) => !dirs.includes(d));
  t.additionalDirs.splice(0, t.additionalDirs.length, ...kept);
  if (file) {
    await updateSettingsFile(file, (data) => {
      const perms = objectAt(data, 'permissions', file);
      const before = Array.isArray(perms.additionalDirectories) ? (perms.additionalDirectories as unknown[]) : [];
      const next = add ? [...before, ...dirs.filter((d) => !before.includes(d))] : before.filter((d) => !dirs.includes(d as string));
      if (next.length === before.length) return false;
      perms.additionalDirectories = next;
      return true;
    });
  }
  return `directories ${add ? 'added' : 'removed'} (${destination}): ${dirs.join(', ')}`;
}

/** `{toolName, ruleContent?}` → `Tool(content)`, or `Tool`. */
function ruleText(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { toolName, ruleContent } = v as { toolName?: unknown; ruleContent?: unknown };
  if (typeof toolName !== 'string' || !toolName.trim()) return undefined;
  if (ruleContent === undefined || ruleContent === null || ruleContent === '') return toolName;
  return typeof ruleContent === 'string' ? `${toolName}(${ruleContent})` : undefined;
}

/** `cliArg` rules last for the session, as session rules do (a settings reload keeps both). */
function ruleSource(destination: Destination): RuleSource {
  return destination === 'cliArg' ? 'session' : destination;
}

function settingsFile(destination: Destination, t: PermissionTarget): string | undefined {
  if (destination === 'userSettings') return userSettingsPath(t.homeDir, t.configDir);
  if (destination === 'projectSettings') return projectSettingsPath(t.projectRoot);
  if (destination === 'localSettings') return localSettingsPath(t.projectRoot);
  return undefined;
}

function objectAt(data: Record<string, any>, key: string, file: string): Record<string, unknown> {
  const v = data[key] ?? (data[key] = {});
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`${file}: "${key}" is not an object; it was not changed (the change holds for this session)`);
  return v;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The session whose permissions a PermissionRequest hook's answer changes (the loop's options). */
export interface PermissionSession {
  permission: PermissionTarget['permission'];
  additionalDirs: string[];
  projectRoot: string;
  homeDir: string;
  state: { cwd: string };
}

/**
 * What a PermissionRequest hook's answer does beyond its call: `updatedPermissions` applied to this
 * session (read when applied: turns may run on copies of the options, sharing this state), and
 * `interrupt` handed to the face.
 */
export function permissionEffects(s: PermissionSession, o: { canBypass: boolean; configDir?: string; interrupt: () => void }): PermissionEffects {
  const target = (): PermissionTarget => ({
    permission: s.permission,
    additionalDirs: s.additionalDirs,
    projectRoot: s.projectRoot,
    cwd: s.state.cwd,
    homeDir: s.homeDir,
    canBypass: o.canBypass,
    ...(o.configDir ? { configDir: o.configDir } : {}),
  });
  return { applyUpdates: async (updates) => (await applyPermissionUpdates(updates, target())).warnings, interrupt: o.interrupt };
}
