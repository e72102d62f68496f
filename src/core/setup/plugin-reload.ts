/**
 * /reload-plugins: the session's plugins read again from disk and the settings as they are now
 * (what `wicket plugin install|update|enable|disable` or the /plugin screen changed), without a
 * restart. Their commands, skills, agents and output styles are handed to the loaders again
 * (plugins/active.ts), their hooks replace the plugins' hooks the session had, their MCP servers
 * replace the plugins' servers (a changed one reconnects, a gone one is closed, a new one starts,
 * all through the settings' server policy), and the Skill tool joins when a plugin brings the first
 * skill. The settings' own rules and hooks are left as they are (settings-reload.ts keeps those).
 */
import { homedir } from 'node:os';
import { loadMcpConfig } from '../../mcp/config.js';
import type { McpServers } from '../../mcp/servers.js';
import { pluginAgentDefinitions } from '../../plugins/agents.js';
import { setActivePlugins } from '../../plugins/active.js';
import { pluginCommands, pluginSkills } from '../../plugins/commands.js';
import { loadPlugins, pluginProblems } from '../../plugins/load.js';
import { NO_PLUGINS, type PluginSet } from '../../plugins/types.js';
import { userPluginsDir } from '../../settings/paths.js';
import { modelSkills } from '../../tools/skill/index.js';
import { BUILTIN_TOOLS } from '../../tools/registry.js';
import { useMcpTools } from './mcp-setup.js';
import type { CliOptions } from './options.js';
import { sessionSettings, type Setup, visibleTools } from './session-setup.js';

export interface PluginReload {
  set: PluginSet;
  /** `Reloaded: 2 plugins · 3 commands · 1 skill · 1 agent · 2 hooks · 1 plugin MCP server`, then the problems. */
  text: string;
  /** Some plugin or component did not load. */
  problems: boolean;
}

export async function reloadPlugins(
  opts: CliOptions,
  setup: Setup,
  deps: { env: Record<string, string | undefined>; home?: string; mcp?: McpServers },
): Promise<PluginReload> {
  const home = deps.home ?? deps.env.HOME ?? homedir();
  const fresh = sessionSettings(opts, deps.env, setup.cwd, home, () => true);
  const set =
    opts.bare || opts.safeMode
      ? NO_PLUGINS
      : loadPlugins({
          cwd: setup.cwd,
          pluginsDir: userPluginsDir(home, deps.env.CLAUDE_CONFIG_DIR || undefined),
          dirs: opts.pluginDir,
          enabled: fresh.merged.enabledPlugins,
          env: { ...deps.env, ...fresh.env },
        });
  setActivePlugins(set);
  setup.plugins = set;
  const { loaded } = setup;
  const kept = loaded.hooks.filter((g) => g.plugin === undefined);
  loaded.hooks.splice(0, loaded.hooks.length, ...kept, ...(loaded.hookPolicy ? [] : set.hooks));
  if (deps.mcp) await reloadServers(opts, setup, set, deps.mcp, home);
  addSkillTool(opts, setup);
  const problems = pluginProblems(set);
  return { set, text: [summary(set), ...problems].join('\n'), problems: problems.length > 0 };
}

/** The Skill tool is offered once there is a skill to run (session-setup.ts); a plugin may bring the first. */
function addSkillTool(opts: CliOptions, setup: Setup): void {
  const tools = setup.options.tools;
  if (opts.disableSlashCommands || tools.some((t) => t.name === 'Skill') || !modelSkills(setup.cwd, setup.configDir).length) return;
  tools.push(...visibleTools(BUILTIN_TOOLS, setup.loaded.rules, opts.tools).filter((t) => t.name === 'Skill'));
}

/** The plugins' servers, through the same configuration rules as at start (policy, --strict-mcp-config). */
async function reloadServers(opts: CliOptions, setup: Setup, set: PluginSet, servers: McpServers, home: string): Promise<void> {
  const env = setup.options.env;
  const config = loadMcpConfig({
    cwd: setup.cwd,
    home,
    configDir: env.CLAUDE_CONFIG_DIR || undefined,
    env,
    cliConfigs: [],
    strict: opts.strictMcpConfig,
    settings: setup.loaded.merged,
    pluginServers: set.mcpServers,
  });
  await servers.replaceScope('plugin', config);
  useMcpTools(setup.options, servers, opts.tools);
}

function summary(set: PluginSet): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const hooks = set.hooks.reduce((n, g) => n + g.hooks.length, 0);
  return `Reloaded: ${[
    count(set.plugins.length, 'plugin'),
    count(pluginCommands(set.plugins).length, 'command'),
    count(pluginSkills(set.plugins).length, 'skill'),
    count(pluginAgentDefinitions(set.plugins).length, 'agent'),
    count(hooks, 'hook'),
    count(set.mcpServers.length, 'plugin MCP server'),
  ].join(' · ')}`;
}
