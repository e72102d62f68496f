/** A report of the session's plugins: each with where it came from and what it brings, then the problems (/plugin, `wicket plugin list`). */
import { pluginAgentDefinitions } from './agents.js';
import { pluginCommands, pluginSkills } from './commands.js';
import type { LoadedPlugin, PluginSet } from './types.js';

export function describePlugins(set: PluginSet): string {
  if (!set.plugins.length && !set.errors.length) {
    return 'No plugins. Load one with --plugin-dir <folder>, or enable an installed one in settings: "enabledPlugins": {"name@marketplace": true}.';
  }
  const lines = set.plugins.length ? ['Plugins'] : [];
  for (const p of set.plugins)
    lines.push(`  ✓ ${p.name}${p.version ? ` ${p.version}` : ''}  (${p.id ?? '--plugin-dir'}: ${p.root})`, `      ${contents(p, set)}`);
  if (set.errors.length) lines.push('Problems', ...set.errors.map((e) => `  ✗ ${e.plugin}: ${e.message}`));
  return lines.join('\n');
}

function contents(p: LoadedPlugin, set: PluginSet): string {
  const count = (n: number, what: string) => (n ? [`${n} ${what}${n === 1 ? '' : 's'}`] : []);
  const parts = [
    ...count(pluginCommands([p]).length, 'command'),
    ...count(pluginSkills([p]).length, 'skill'),
    ...count(pluginAgentDefinitions([p]).length, 'agent'),
    ...count(
      set.hooks.filter((g) => g.plugin === p.name).reduce((n, g) => n + g.hooks.length, 0),
      'hook',
    ),
    ...count(set.mcpServers.filter((s) => s.name.startsWith(`plugin:${p.name}:`)).length, 'MCP server'),
  ];
  return parts.join(', ') || 'nothing wicket uses';
}
