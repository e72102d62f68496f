/**
 * Plugin MCP servers: `.mcp.json` at the plugin root and the manifest's `mcpServers` (files or
 * inline), each a map of server entries, bare or under an `"mcpServers"` key. A server is named
 * `plugin:<plugin>:<server>`, so its tools are `mcp__plugin_<plugin>_<server>__<tool>`, as in Claude
 * Code. `${CLAUDE_PLUGIN_ROOT}` (and any other `${VAR}`) is expanded in its command, arguments, env,
 * URL and headers, and a stdio server gets CLAUDE_PLUGIN_ROOT in its environment. A manifest entry
 * replaces a `.mcp.json` one of the same name.
 */
import { parseServer, type McpServerEntry } from '../mcp/config.js';
import { isObject } from '../settings/validate.js';
import { readConfig } from './files.js';
import type { LoadedPlugin, PluginError } from './types.js';

export function pluginMcpEntries(
  plugins: readonly LoadedPlugin[],
  env: Record<string, string | undefined>,
): { entries: McpServerEntry[]; errors: PluginError[] } {
  const entries: McpServerEntry[] = [];
  const errors: PluginError[] = [];
  for (const plugin of plugins) {
    const byName = new Map<string, McpServerEntry>();
    const vars = { ...env, CLAUDE_PLUGIN_ROOT: plugin.root };
    for (const source of plugin.paths.mcpServers) {
      const read = readConfig(source);
      if ('error' in read) {
        errors.push({ plugin: plugin.name, type: 'mcp-config-invalid', message: read.error, ...('file' in source ? { path: source.file } : {}) });
        continue;
      }
      const servers = isObject(read.data.mcpServers) ? read.data.mcpServers : read.data;
      for (const [server, raw] of Object.entries(servers)) {
        const name = `plugin:${plugin.name}:${server}`;
        const parsed = parseServer(raw, vars);
        const where = { name, scope: 'plugin' as const, source: `plugin ${plugin.name} (${read.label})` };
        if ('error' in parsed) byName.set(server, { ...where, error: parsed.error });
        else {
          const config = parsed.config.type === 'stdio' ? { ...parsed.config, env: { CLAUDE_PLUGIN_ROOT: plugin.root, ...parsed.config.env } } : parsed.config;
          byName.set(server, { ...where, config });
        }
      }
    }
    entries.push(...byName.values());
  }
  return { entries, errors };
}
