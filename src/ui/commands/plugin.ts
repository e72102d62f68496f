/** /plugin: the session's plugins (--plugin-dir and enabledPlugins), what each brings, and those that did not load. */
import { pluginAgentDefinitions } from '../../plugins/agents.js';
import { activePlugins } from '../../plugins/active.js';
import { pluginCommands, pluginSkills } from '../../plugins/commands.js';
import type { LoadedPlugin, PluginSet } from '../../plugins/types.js';
import type { SlashCommand } from './types.js';

export const pluginCommand: SlashCommand = {
  name: 'plugin',
  aliases: ['plugins'],
  description: 'Plugins of this session: what each brings, and those that did not load',
  source: 'builtin',
  run: () => ({ kind: 'info', text: describePlugins(activePlugins()) }),
};

export function describePlugins(set: PluginSet): string {
  if (!set.plugins.length && !set.errors.length) {
    return 'No plugins. Load one with --plugin-dir <folder>, or enable an installed one in settings: "enabledPlugins": {"name@marketplace": true}.';
  }
  const lines = set.plugins.length ? ['Plugins'] : [];
  for (const p of set.plugins) lines.push(`  ✓ ${p.name}${p.version ? ` ${p.version}` : ''}  (${p.id ?? '--plugin-dir'}: ${p.root})`, `      ${contents(p, set)}`);
  if (set.errors.length) lines.push('Problems', ...set.errors.map((e) => `  ✗ ${e.plugin}: ${e.message}`));
  return lines.join('\n');
}

function contents(p: LoadedPlugin, set: PluginSet): string {
  const count = (n: number, what: string) => (n ? [`${n} ${what}${n === 1 ? '' : 's'}`] : []);
  const parts = [
    ...count(pluginCommands([p]).length, 'command'),
    ...count(pluginSkills([p]).length, 'skill'),
    ...count(pluginAgentDefinitions([p]).length, 'agent'),
    ...count(set.hooks.filter((g) => g.plugin === p.name).reduce((n, g) => n + g.hooks.length, 0), 'hook'),
    ...count(set.mcpServers.filter((s) => s.name.startsWith(`plugin:${p.name}:`)).length, 'MCP server'),
  ];
  return parts.join(', ') || 'nothing wicket uses';
}
