/**
 * `wicket plugin install|uninstall|enable|disable` and `wicket plugin marketplace add|list|remove`,
 * in Claude Code's files, so that either tool sees what the other did:
 * - a marketplace is recorded in `<config dir>/plugins/known_marketplaces.json` (`{"<name>":
 *   {"source": {"source": "directory", "path"}, "installLocation", "lastUpdated"}}`); wicket adds
 *   folders on disk only, since it downloads nothing (a git marketplace: clone it, then add the folder);
 * - a plugin is turned on or off by `enabledPlugins["name@marketplace"]` in the user's, the
 *   project's or the local settings file. Installing checks that the plugin is there to load (in a
 *   marketplace on disk, or in Claude Code's install records) and turns it on; nothing is copied.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { localSettingsPath, projectSettingsPath, userSettingsPath } from '../settings/paths.js';
import { updateSettingsFile } from '../settings/persist.js';
import { isObject } from '../settings/validate.js';
import { InstalledPlugins } from './installed.js';

export type PluginScope = 'user' | 'project' | 'local';

export interface ManageContext {
  cwd: string;
  home: string;
  /** CLAUDE_CONFIG_DIR, when set. */
  configDir?: string;
}

const pluginsDir = (ctx: ManageContext) => path.join(ctx.configDir ?? path.join(ctx.home, '.claude'), 'plugins');
const knownFile = (ctx: ManageContext) => path.join(pluginsDir(ctx), 'known_marketplaces.json');

/** The settings file a scope writes. */
export function scopeFile(ctx: ManageContext, scope: PluginScope): string {
  if (scope === 'user') return userSettingsPath(ctx.home, ctx.configDir);
  return scope === 'project' ? projectSettingsPath(ctx.cwd) : localSettingsPath(ctx.cwd);
}

/** Records the marketplace in `source` (a folder, or its marketplace.json); returns its name. */
export async function addMarketplace(ctx: ManageContext, source: string): Promise<string> {
  if (/^[a-z][a-z+.-]*:\/\//i.test(source) || (/^[\w.-]+\/[\w.-]+$/.test(source) && !isDir(path.resolve(ctx.cwd, source)))) {
    throw new Error(`wicket adds marketplaces that are on disk only; it downloads nothing. Clone ${source} (git clone …) and add the folder`);
  }
  const given = path.resolve(ctx.cwd, source);
  const root = isDir(given) ? given : path.basename(path.dirname(given)) === '.claude-plugin' ? path.dirname(path.dirname(given)) : path.dirname(given);
  const file = isDir(given) ? path.join(given, '.claude-plugin', 'marketplace.json') : given;
  const name = marketplaceName(file);
  await updateSettingsFile(knownFile(ctx), (data) => {
    data[name] = { source: { source: 'directory', path: root }, installLocation: root, lastUpdated: new Date().toISOString() };
    return true;
  });
  return name;
}

function marketplaceName(file: string): string {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is none' : (err as Error).message;
    throw new Error(`no marketplace at ${file}: ${why}`);
  }
  const name = isObject(data) ? data.name : undefined;
  if (typeof name !== 'string' || !/^[\w.-]+$/.test(name)) throw new Error(`${file} needs a "name" (letters, digits, "-", "_" or ".")`);
  return name;
}

/** The known marketplaces: name and folder. */
export function listMarketplaces(ctx: ManageContext): Array<{ name: string; location: string }> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(knownFile(ctx), 'utf8'));
  } catch {
    return [];
  }
  if (!isObject(data)) return [];
  return Object.entries(data).map(([name, v]) => ({
    name,
    location: isObject(v) && typeof v.installLocation === 'string' ? v.installLocation : '(not on disk)',
  }));
}

export async function removeMarketplace(ctx: ManageContext, name: string): Promise<void> {
  let found = false;
  await updateSettingsFile(knownFile(ctx), (data) => {
    found = name in data;
    delete data[name];
    return found;
  });
  if (!found) throw new Error(`no marketplace named ${name}`);
}

/** Checks that `id` (name@marketplace) can be loaded, then turns it on in the scope's settings. */
export async function installPlugin(ctx: ManageContext, id: string, scope: PluginScope): Promise<string> {
  if (!/^[^@\s]+@[^@\s]+$/.test(id)) throw new Error(`name the plugin as name@marketplace, got "${id}"`);
  const found = new InstalledPlugins({ pluginsDir: pluginsDir(ctx), cwd: ctx.cwd }).find(id);
  if ('error' in found) {
    const why = found.error.replace(/^plugin "[^"]+" is enabled but not installed: /, '').replace(/\. Install it with Claude Code.*$/, '');
    throw new Error(`cannot install ${id}: ${why}. Add its marketplace folder first (wicket plugin marketplace add <folder>)`);
  }
  await setPluginEnabled(ctx, id, scope, true);
  return found.root;
}

/** Sets `enabledPlugins[id]` in the scope's settings to `value`; undefined removes the entry. */
export async function setPluginEnabled(ctx: ManageContext, id: string, scope: PluginScope, value: boolean | undefined): Promise<boolean> {
  let changed = false;
  await updateSettingsFile(scopeFile(ctx, scope), (data, file) => {
    if (data.enabledPlugins !== undefined && !isObject(data.enabledPlugins)) throw new Error(`${file}: "enabledPlugins" is not an object; it was not changed`);
    const plugins = (data.enabledPlugins ??= {}) as Record<string, unknown>;
    if (value === undefined) {
      changed = id in plugins;
      delete plugins[id];
    } else {
      changed = plugins[id] !== value;
      plugins[id] = value;
    }
    return changed;
  });
  return changed;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
