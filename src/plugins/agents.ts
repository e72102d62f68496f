/**
 * Plugin sub-agent types: every `.md` file of the plugin's agent folders or files, read as
 * `.claude/agents/*.md` are (tools/agent/definitions.ts) and named `<plugin>:<name>`. They rank below
 * every other agent. As in Claude Code, a plugin agent cannot choose its permission mode, hooks or
 * MCP servers: it runs with the session's, and `${CLAUDE_PLUGIN_ROOT}` in its prompt is the plugin's folder.
 */
import { parseAgentFile, type AgentDefinition } from '../tools/agent/definitions.js';
import { markdownAt } from './files.js';
import { withPluginRoot, type LoadedPlugin } from './types.js';

export function pluginAgentDefinitions(plugins: readonly LoadedPlugin[]): AgentDefinition[] {
  const out: AgentDefinition[] = [];
  for (const plugin of plugins) {
    for (const { file, text } of plugin.paths.agents.flatMap(markdownAt)) {
      const def = parseAgentFile(text, 'user', file);
      if (!def) continue;
      // As in Claude Code, a plugin agent's permissionMode, hooks and mcpServers are not honoured.
      const { permissionMode: _mode, hooks: _hooks, mcpServers: _servers, ...rest } = def;
      out.push({ ...rest, name: `${plugin.name}:${def.name}`, systemPrompt: withPluginRoot(def.systemPrompt, plugin.root), source: 'plugin' });
    }
  }
  return out;
}
