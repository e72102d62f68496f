/**
 * Plugin hooks: `hooks/hooks.json` (`{"description"?: …, "hooks": {<event>: [matcher groups]}}`, the
 * settings `hooks` format wrapped in an object) and the manifest's `hooks`, as files or inline. They
 * are parsed as settings hooks are (settings/hooks.ts), with `${CLAUDE_PLUGIN_ROOT}` filled in in
 * commands and arguments and CLAUDE_PLUGIN_ROOT in their environment; they run beside the settings'
 * hooks, through the same gate.
 */
import { parseHooksConfig } from '../settings/hooks.js';
import type { HookGroup } from '../base/hook-config.js';
import { isObject } from '../settings/validate.js';
import { readConfig } from './files.js';
import { withPluginRoot, type LoadedPlugin, type PluginError } from './types.js';

export function pluginHookGroups(plugins: readonly LoadedPlugin[]): { groups: HookGroup[]; errors: PluginError[]; warnings: string[] } {
  const out = { groups: [] as HookGroup[], errors: [] as PluginError[], warnings: [] as string[] };
  for (const plugin of plugins) {
    for (const source of plugin.paths.hooks) {
      const read = readConfig(source);
      if ('error' in read) {
        out.errors.push({ plugin: plugin.name, type: 'hook-load-failed', message: read.error, ...('file' in source ? { path: source.file } : {}) });
        continue;
      }
      const label = `plugin ${plugin.name}: ${read.label}`;
      const parsed = parseHooksConfig(hooksOf(read.data), 'plugin', read.file, label);
      out.warnings.push(...parsed.warnings);
      for (const g of parsed.groups) out.groups.push(inPlugin(g, plugin));
    }
  }
  return out;
}

/** `{"hooks": {…}}` as hooks.json has it, or the event map itself (inline in a manifest). */
function hooksOf(data: Record<string, unknown>): unknown {
  if (isObject(data.hooks)) return data.hooks;
  const { description: _description, ...events } = data;
  return events;
}

function inPlugin(group: HookGroup, plugin: LoadedPlugin): HookGroup {
  const fill = (s: string) => withPluginRoot(s, plugin.root);
  return {
    ...group,
    hooks: group.hooks.map((h) =>
      h.type === 'command'
        ? { ...h, command: fill(h.command), ...(h.args ? { args: h.args.map(fill) } : {}) }
        : h.type === 'http'
          ? { ...h, url: fill(h.url) }
          : h,
    ),
    env: { CLAUDE_PLUGIN_ROOT: plugin.root },
    plugin: plugin.name,
  };
}
