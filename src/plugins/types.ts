/**
 * Claude Code plugins as wicket holds them once found on disk: where each plugin lives and where its
 * components are, and what went wrong for those that did not load. The files themselves are read
 * by the component loaders (commands.ts, agents.ts, hooks.ts, mcp.ts, output-styles.ts).
 */
import type { HookGroup } from '../base/hook-config.js';
import type { McpServerEntry } from '../mcp/config.js';
import type { LspServerConfig } from '../base/lsp.js';

/** A config file of the plugin, or an object written inline in its manifest (hooks, MCP servers). */
export type ConfigSource = { file: string } | { inline: Record<string, unknown>; where: string };

/** Absolute locations of one plugin's components (files or folders), resolved from the manifest. */
export interface ComponentPaths {
  commands: string[];
  agents: string[];
  skills: string[];
  outputStyles: string[];
  hooks: ConfigSource[];
  mcpServers: ConfigSource[];
  lspServers: ConfigSource[];
}

export interface LoadedPlugin {
  /** Manifest `name`, else the plugin's id (`name@marketplace`) without the marketplace, else its folder's name. */
  name: string;
  /** The plugin root, absolute: `${CLAUDE_PLUGIN_ROOT}`. */
  root: string;
  /** `name@marketplace` for a plugin enabled in settings; undefined for one given with --plugin-dir. */
  id?: string;
  source: 'plugin-dir' | 'settings';
  version?: string;
  description?: string;
  paths: ComponentPaths;
}

/**
 * One problem, in the shape of Claude Code's `plugin_errors` entries. `type` is one of
 * plugin-not-found, path-not-found, manifest-parse-error, manifest-validation-error,
 * hook-load-failed, mcp-config-invalid.
 */
export interface PluginError {
  plugin: string;
  type: string;
  message: string;
  path?: string;
}

export interface PluginSet {
  plugins: LoadedPlugin[];
  /** Plugins that did not load, and components of loaded ones that could not be read. */
  errors: PluginError[];
  /** Lesser notes (a hook event wicket does not fire, an unknown handler field). */
  warnings: string[];
  /** Hook groups of every plugin, `${CLAUDE_PLUGIN_ROOT}` filled in and in their environment. */
  hooks: HookGroup[];
  /** MCP servers of every plugin, named `plugin:<plugin>:<server>`. */
  mcpServers: McpServerEntry[];
  /** Language servers of every plugin, named `plugin:<plugin>:<server>`. */
  lspServers?: LspServerConfig[];
}

export const NO_PLUGINS: PluginSet = Object.freeze({ plugins: [], errors: [], warnings: [], hooks: [], mcpServers: [] }) as PluginSet;

/** `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin's folder. */
export function withPluginRoot(text: string, root: string): string {
  return text.replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, () => root);
}
