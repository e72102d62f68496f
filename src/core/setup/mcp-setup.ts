/**
 * A session's MCP servers, from its flags and settings, and their tools added to the session's own.
 * Nothing of the MCP SDK loads when no server is configured.
 */
import type { AgentOptions } from '../agent-options.js';
import { VERSION } from '../../base/version.js';
import { loadMcpConfig } from '../../mcp/config.js';
import type { ElicitationHandler } from '../../mcp/elicitation.js';
import { oauthStorePath } from '../../mcp/oauth-store.js';
import { stdioSandbox } from '../../mcp/sandbox.js';
import { mcpLimitsFromEnv, McpServers, type McpServersOptions } from '../../mcp/servers.js';
import type { SdkServerEntry } from '../../mcp/sdk-server.js';
import type { Tool } from '../../base/tool.js';
import { agentMcpEntries } from '../../mcp/agent-servers.js';
import { toolSearchTool } from '../../tools/tool-search/index.js';
import { isDeferred, TOOL_SEARCH, toolSearchMode } from '../../tools/tool-search/mode.js';
import type { CliOptions } from './options.js';
import { visibleTools, type Setup } from './session-setup.js';

/** Undefined when no server is configured anywhere (unless `always`). Throws McpConfigError for a bad --mcp-config. */
export function mcpServersFor(
  opts: Pick<CliOptions, 'mcpConfig' | 'strictMcpConfig'>,
  setup: Setup,
  how: { holdUnapproved: boolean; onChange?: () => void; elicitation?: ElicitationHandler; sdkServers?: SdkServerEntry[]; always?: boolean },
): McpServers | undefined {
  const env = setup.options.env;
  const config = loadMcpConfig({
    cwd: setup.cwd,
    home: setup.options.homeDir,
    configDir: env.CLAUDE_CONFIG_DIR || undefined,
    env,
    cliConfigs: opts.mcpConfig,
    strict: opts.strictMcpConfig,
    settings: setup.loaded.merged,
    pluginServers: setup.plugins.mcpServers,
  });
  for (const w of config.warnings) setup.loaded.warnings.push(w);
  // --agent: the agent's own servers start with the session's (and replace one of the same name).
  if (setup.agent) {
    const own = agentMcpEntries(setup.agent, env, setup.options.settings);
    setup.loaded.warnings.push(...own.warnings);
    const names = new Set(own.entries.map((e) => e.name));
    config.servers = [...config.servers.filter((e) => !names.has(e.name)), ...own.entries];
    config.unapproved = config.unapproved.filter((n) => !names.has(n));
  }
  const sdkServers = how.sdkServers ?? [];
  if (!config.servers.length && !config.disabled.length && !sdkServers.length && !how.always) return undefined;
  const servers = new McpServers(config, serversOptions(setup, how));
  // The Agent SDK host's in-process servers (initialize's sdkMcpServers) take the place of configured ones of the same name.
  for (const name of servers.addSdkServers(sdkServers))
    setup.loaded.warnings.push(`MCP server "${name}": the SDK host's in-process server of that name is used instead`);
  return hookable(setup, servers);
}

/** A session's MCP servers with none yet: the Agent SDK adds some later (mcp_set_servers). */
export function emptyMcpServers(setup: Setup, how: { holdUnapproved: boolean; onChange?: () => void; elicitation?: ElicitationHandler }): McpServers {
  return hookable(setup, new McpServers({ servers: [], unapproved: [], disabled: [], warnings: [] }, serversOptions(setup, how)));
}

/** `type: "mcp_tool"` hooks call the servers once they connect. */
function hookable(setup: Setup, servers: McpServers): McpServers {
  if (setup.hookMcp) setup.hookMcp.target = servers;
  return servers;
}

/** How the session's servers run: sandboxed as its commands are, with its limits and OAuth store. */
function serversOptions(setup: Setup, how: { holdUnapproved: boolean; onChange?: () => void; elicitation?: ElicitationHandler }): McpServersOptions {
  const o = setup.options;
  const env = o.env;
  const sandbox = stdioSandbox({
    cwd: setup.cwd,
    projectRoot: setup.cwd,
    additionalDirs: o.additionalDirs,
    homeDir: o.homeDir,
    wicketHome: o.wicketHome,
    env,
    settings: o.settings,
    rules: o.permission.rules,
  });
  return {
    projectRoot: setup.cwd,
    env,
    sandbox,
    version: VERSION,
    oauthStore: oauthStorePath(o.wicketHome),
    ...mcpLimitsFromEnv(env),
    holdUnapproved: how.holdUnapproved,
    onChange: how.onChange,
    ...(how.elicitation ? { elicitation: how.elicitation } : {}),
  };
}

/**
 * Puts the connected servers' tools (and the resource tools) into the session (a bare deny rule
 * such as `mcp__github` still removes them) in place of any it had from them before, and their
 * instructions into the system prompt; with them ToolSearch, unless tool search is off, denied, or
 * left out by --tools (`only`). Called again after a server connects later (an approval in the
 * app) and after a server's tools changed; the next request to the model sees the new list.
 */
export function useMcpTools(agent: Pick<AgentOptions, 'tools' | 'system' | 'permission' | 'env'>, servers: McpServers, only?: readonly string[]): void {
  const fromServers = new Set(servers.resourceToolNames);
  const own = agent.tools.filter((t) => !t.name.startsWith('mcp__') && t.name !== TOOL_SEARCH && !fromServers.has(t.name));
  const mcp: Tool[] = visibleTools(servers.tools(), agent.permission.rules);
  const search =
    mcp.some(isDeferred) && toolSearchMode(agent.env).kind !== 'off'
      ? visibleTools([toolSearchTool], agent.permission.rules, only ? [...only] : undefined)
      : [];
  agent.tools.splice(0, agent.tools.length, ...own, ...search, ...mcp);
  const sections = servers.instructions();
  const at = agent.system.findIndex((b) => b.text.startsWith(INSTRUCTIONS_HEADING));
  if (at >= 0) agent.system.splice(at, 1);
  if (sections.length) agent.system.push({ type: 'text', text: `${INSTRUCTIONS_HEADING}\n\n${sections.join('\n\n')}` });
}

const INSTRUCTIONS_HEADING = '# MCP server instructions';

/** Keeps the session's tools in step with the servers' tool lists as they change; returns the way to stop. */
export function followMcpTools(
  agent: Pick<AgentOptions, 'tools' | 'system' | 'permission' | 'env'>,
  servers: McpServers,
  only?: readonly string[],
): () => void {
  return servers.onListChanged((_server, kind) => {
    if (kind === 'tools' || kind === 'resources') useMcpTools(agent, servers, only);
  });
}

/**
 * One line per server that failed or needs authentication, for stderr (print mode, which never
 * waits for a browser: it says where to sign in) or the app.
 */
export function mcpProblems(servers: McpServers, where: 'app' | 'print' = 'app'): string[] {
  return servers.list().flatMap((s) => {
    if (s.status === 'failed') return [`MCP server "${s.name}" (${s.source}) failed: ${s.error ?? 'unknown error'}`];
    if (s.status !== 'needs-auth') return [];
    const how =
      where === 'app' ? `/mcp login ${s.name} signs in` : `run /mcp in the app (or wicket mcp login ${s.name}) to sign in; this run goes on without it`;
    return [`MCP server "${s.name}" (${s.source}) needs authentication: ${how}`];
  });
}
