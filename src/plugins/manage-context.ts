/**
 * What `wicket plugin …` and the app's /plugin screen change, and where: Claude Code's files under
 * `<config dir>/plugins/` (known_marketplaces.json, marketplaces/, cache/, installed_plugins.json)
 * and the settings keys it writes, `enabledPlugins["name@marketplace"]` in the scope's settings file
 * and, for a marketplace a person added, `extraKnownMarketplaces` in their user settings.
 */
import path from 'node:path';
import { localSettingsPath, projectSettingsPath, userPluginsDir, userSettingsPath } from '../settings/paths.js';
import { updateSettingsFile } from '../settings/persist.js';
import { isObject } from '../settings/validate.js';
import type { InstallScope } from './install-records.js';
import type { MarketplaceSource } from './marketplace-source.js';

export type PluginScope = InstallScope;

export interface ManageContext {
  cwd: string;
  home: string;
  /** CLAUDE_CONFIG_DIR, when set. */
  configDir?: string;
  /** For git (its PATH, proxies, credentials helpers) and CLAUDE_CODE_PLUGIN_GIT_TIMEOUT_MS. */
  env: Record<string, string | undefined>;
}

export function pluginsDirOf(ctx: ManageContext): string {
  return userPluginsDir(ctx.home, ctx.configDir);
}

/** The settings file a scope writes. */
export function scopeFile(ctx: ManageContext, scope: PluginScope): string {
  if (scope === 'user') return userSettingsPath(ctx.home, ctx.configDir);
  return scope === 'project' ? projectSettingsPath(ctx.cwd) : localSettingsPath(ctx.cwd);
}

/** The project a scope's install records belong to (none for the user's). */
export function projectPathOf(ctx: ManageContext, scope: PluginScope): string | undefined {
  return scope === 'user' ? undefined : path.resolve(ctx.cwd);
}

/** Sets `enabledPlugins[id]` in the scope's settings to `value`; undefined removes the entry. Says whether it changed. */
export async function setPluginEnabled(ctx: ManageContext, id: string, scope: PluginScope, value: boolean | undefined): Promise<boolean> {
  let changed = false;
  await updateSettingsFile(scopeFile(ctx, scope), (data, file) => {
    if (data.enabledPlugins !== undefined && !isObject(data.enabledPlugins)) throw new Error(`${file}: "enabledPlugins" is not an object; it was not changed`);
    const plugins = (data.enabledPlugins ??= {}) as Record<string, unknown>;
    if (value === undefined) {
      changed = Object.hasOwn(plugins, id);
      delete plugins[id];
    } else {
      changed = plugins[id] !== value;
      plugins[id] = value;
    }
    return changed;
  });
  return changed;
}

/** Declares (or, with undefined, takes out) a marketplace in the user's `extraKnownMarketplaces`, as Claude Code's `marketplace add` does. */
export async function declareMarketplace(ctx: ManageContext, name: string, source: MarketplaceSource | undefined): Promise<void> {
  await updateSettingsFile(scopeFile(ctx, 'user'), (data, file) => {
    if (data.extraKnownMarketplaces !== undefined && !isObject(data.extraKnownMarketplaces))
      throw new Error(`${file}: "extraKnownMarketplaces" is not an object; it was not changed`);
    const declared = (data.extraKnownMarketplaces ??= {}) as Record<string, unknown>;
    if (source === undefined) {
      if (!Object.hasOwn(declared, name)) return false;
      delete declared[name];
      return true;
    }
    declared[name] = { source };
    return true;
  });
}

/** `name@marketplace`, split; an error for anything else. */
export function splitId(id: string): { name: string; marketplace: string } {
  const m = /^([^@\s]+)@([^@\s]+)$/.exec(id);
  if (!m) throw new Error(`name the plugin as name@marketplace, got "${id}"`);
  return { name: m[1]!, marketplace: m[2]! };
}
