/**
 * A session's plugins, set up with its settings: loaded (unless --bare), made the process's active
 * set, their hooks added to the settings' (unless disableAllHooks or allowManagedHooksOnly), their
 * problems added to the settings warnings (stderr in print mode, notes in the app), and a
 * `force-for-plugin` output style chosen when settings choose none.
 */
import type { LoadedSettings } from '../settings/load.js';
import { userPluginsDir } from '../settings/paths.js';
import { setActivePlugins } from './active.js';
import { loadPlugins, pluginProblems } from './load.js';
import { describeMissing, missingPlugins } from './project-plugins.js';
import { pluginOutputStyles } from './output-styles.js';
import { NO_PLUGINS, type PluginSet } from './types.js';

export interface PluginFlags {
  bare: boolean;
  /** --plugin-dir values. */
  pluginDir: readonly string[];
}

export function usePlugins(
  flags: PluginFlags,
  loaded: LoadedSettings,
  where: { cwd: string; home: string; env: Record<string, string | undefined> },
): PluginSet {
  const set = flags.bare
    ? NO_PLUGINS
    : loadPlugins({
        cwd: where.cwd,
        pluginsDir: userPluginsDir(where.home, where.env.CLAUDE_CONFIG_DIR || undefined),
        dirs: flags.pluginDir,
        enabled: loaded.merged.enabledPlugins,
        env: { ...where.env, ...loaded.env },
      });
  setActivePlugins(set);
  const missing = flags.bare ? undefined : missingFromSettings(loaded, where);
  if (missing?.length) loaded.warnings.push(missing.join('\n'));
  if (set === NO_PLUGINS) return set;
  if (!loaded.hookPolicy) loaded.hooks.push(...set.hooks);
  // A plugin the lines above already name (with the command that installs it) is not named twice.
  const named = (missing ?? []).join('\n');
  const namedAbove = (line: string) => {
    const id = /^plugin "([^"]+)" is enabled but not installed/.exec(line)?.[1];
    return id !== undefined && named.includes(` plugin ${id}:`);
  };
  loaded.warnings.push(...pluginProblems(set).filter((line) => !namedAbove(line)));
  if (loaded.merged.outputStyle === undefined) {
    const forced = pluginOutputStyles(set.plugins).find((s) => s.forced);
    if (forced) loaded.merged.outputStyle = forced.name;
  }
  return set;
}

/** What the settings declare (extraKnownMarketplaces) or enable that is not here: lines that say how to add it. */
function missingFromSettings(loaded: LoadedSettings, where: { cwd: string; home: string; env: Record<string, string | undefined> }): string[] {
  const m = loaded.merged;
  if (m.extraKnownMarketplaces === undefined && m.enabledPlugins === undefined) return [];
  const configDir = where.env.CLAUDE_CONFIG_DIR || undefined;
  return describeMissing(missingPlugins({ cwd: where.cwd, home: where.home, ...(configDir ? { configDir } : {}), env: where.env }, m));
}
