/**
 * The session's plugins: each `--plugin-dir` folder, then each plugin `enabledPlugins` turns on
 * (installed.ts finds it on disk). A --plugin-dir plugin wins over an enabled one of the same name.
 * With neither, nothing is read at all. Never throws: a plugin that cannot be found or read becomes
 * an error in the set, and the others load.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { pluginHookGroups } from './hooks.js';
import { enabledPluginIds, InstalledPlugins } from './installed.js';
import { readPlugin } from './manifest.js';
import { pluginMcpEntries } from './mcp.js';
import { pluginLspServers } from './lsp.js';
import { NO_PLUGINS, type LoadedPlugin, type PluginError, type PluginSet } from './types.js';

export interface PluginSources {
  cwd: string;
  /** `<config dir>/plugins` (CLAUDE_CONFIG_DIR respected). */
  pluginsDir: string;
  /** `--plugin-dir` values, as given (relative to `cwd`). */
  dirs: readonly string[];
  /** Merged settings `enabledPlugins`. */
  enabled?: unknown;
  /** For `${VAR}` in plugin MCP server entries. */
  env: Record<string, string | undefined>;
}

/** Whether anything asks for plugins: when not, loading them reads no file. */
export function wantsPlugins(src: Pick<PluginSources, 'dirs' | 'enabled'>): boolean {
  return src.dirs.length > 0 || enabledPluginIds(src.enabled).length > 0;
}

export function loadPlugins(src: PluginSources): PluginSet {
  if (!wantsPlugins(src)) return NO_PLUGINS;
  const plugins: LoadedPlugin[] = [];
  const errors: PluginError[] = [];
  const add = (found: { plugin?: LoadedPlugin; errors: PluginError[] }) => {
    errors.push(...found.errors);
    const p = found.plugin;
    if (!p) return;
    const clash = plugins.find((q) => q.name === p.name);
    if (clash)
      errors.push({
        plugin: p.id ?? p.name,
        type: 'manifest-validation-error',
        message: `plugin "${p.name}" (${p.root}) is not loaded: ${clash.root} already has that name`,
      });
    else plugins.push(p);
  };
  for (const dir of src.dirs) {
    const root = realDir(path.resolve(src.cwd, dir));
    if (!root) errors.push({ plugin: dir, type: 'path-not-found', message: `--plugin-dir ${dir}: no such folder`, path: path.resolve(src.cwd, dir) });
    else add(readPlugin(root, { fallbackName: path.basename(root), source: 'plugin-dir' }));
  }
  const installed = new InstalledPlugins({ pluginsDir: src.pluginsDir, cwd: src.cwd });
  for (const id of enabledPluginIds(src.enabled)) {
    const name = id.includes('@') ? id.slice(0, id.lastIndexOf('@')) : id;
    if (plugins.some((p) => p.source === 'plugin-dir' && p.name === name)) continue;
    const found = installed.find(id);
    if ('error' in found) {
      errors.push({ plugin: id, type: 'plugin-not-found', message: found.error });
      continue;
    }
    const root = realDir(found.root) ?? found.root;
    add(readPlugin(root, { fallbackName: name, id: found.id, source: 'settings', ...(found.entry ? { entry: found.entry } : {}) }));
  }
  const hooks = pluginHookGroups(plugins);
  const mcp = pluginMcpEntries(plugins, src.env);
  const lsp = pluginLspServers(plugins, src.env);
  return {
    plugins,
    errors: [...errors, ...hooks.errors, ...mcp.errors, ...lsp.errors],
    warnings: hooks.warnings,
    hooks: hooks.groups,
    mcpServers: mcp.entries,
    lspServers: lsp.servers,
  };
}

/** One line per problem, for stderr in print mode and the notes of the app. */
export function pluginProblems(set: PluginSet): string[] {
  const named = (m: string) => m.startsWith('plugin "') || m.startsWith('--plugin-dir');
  return [...set.errors.map((e) => (named(e.message) ? e.message : `plugin ${e.plugin}: ${e.message}`)), ...set.warnings];
}

function realDir(p: string): string | undefined {
  try {
    return statSync(p).isDirectory() ? realpathSync(p) : undefined;
  } catch {
    return undefined;
  }
}
