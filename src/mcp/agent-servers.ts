/**
 * Frontmatter `mcpServers`. A name keeps that server of the session for the agent (its tools stay,
 * whatever `tools` says: see core/subagent.ts). An inline definition (the `.mcp.json` entry format)
 * is a server of the agent's own: connected when its run starts, its tools named
 * `mcp__<server>__<tool>` as usual, and closed when the run ends. The settings' server policy
 * (allowedMcpServers, deniedMcpServers) holds for them; --strict-mcp-config and --bare leave out the
 * ones of agent files, not those given with --agents. The Agent tool reaches this through its
 * context (ToolContext.connectAgentServers), which the session fills in.
 */
import { VERSION } from '../base/version.js';
import { parseServer, policyRefusal, type McpServerEntry } from './config.js';
import { sessionElicitation, type ElicitationHandler } from './elicitation.js';
import { stdioSandbox } from './sandbox.js';
import { McpServers, mcpLimitsFromEnv } from './servers.js';
import { ruleNamesTool } from '../base/rule-parse.js';
import type { PermissionRules } from '../base/permission-types.js';
import { toolSearchTool } from '../tools/tool-search/index.js';
import { isDeferred, toolSearchMode } from '../tools/tool-search/mode.js';
import type { AgentServers, AgentServersRequest, Tool } from '../base/tool.js';

/** Set in the settings object a session's tools see when --strict-mcp-config or --bare is given. */
export const STRICT_MCP_KEY = '__strictMcpConfig';

/** The agent's inline servers, ready to start; why any of them cannot be used. */
export function agentMcpEntries(
  def: AgentServersRequest,
  env: Record<string, string | undefined>,
  settings: Record<string, unknown>,
): { entries: McpServerEntry[]; warnings: string[] } {
  const entries: McpServerEntry[] = [];
  const warnings: string[] = [];
  const source = def.file ?? `--agents "${def.name}"`;
  for (const s of def.mcpServers ?? []) {
    if (!s.config) continue;
    if (settings[STRICT_MCP_KEY] === true && def.source !== 'cli') {
      warnings.push(`agent ${def.name}: its MCP server "${s.name}" is left out (--strict-mcp-config or --bare)`);
      continue;
    }
    const parsed = parseServer(s.config, env);
    const entry: McpServerEntry =
      'error' in parsed ? { name: s.name, scope: 'dynamic', source, error: parsed.error } : { name: s.name, scope: 'dynamic', source, config: parsed.config };
    const refused = policyRefusal(entry, settings);
    if (refused) warnings.push(`agent ${def.name}: its MCP server "${s.name}" is ${refused}`);
    else if (entry.error) warnings.push(`agent ${def.name}: its MCP server "${s.name}" cannot start: ${entry.error}`);
    else entries.push(entry);
  }
  return { entries, warnings };
}

export interface AgentMcpContext {
  projectRoot: string;
  env: Record<string, string | undefined>;
  settings: Record<string, unknown>;
  rules?: PermissionRules;
  /** For the sandbox the agent's stdio servers run in (with sandbox.enabled). */
  cwd?: string;
  additionalDirs?: readonly string[];
  homeDir?: string;
  wicketHome?: string;
  /** The session's tools: named servers must be among them. */
  tools?: readonly Tool[];
}

/** The session's answerer of servers' requests for input, when it has one. */
function elicitation(): { elicitation?: ElicitationHandler } {
  const handler = sessionElicitation();
  return handler ? { elicitation: handler } : {};
}

/** The sandbox for the agent's stdio servers, as for the session's. */
function agentSandbox(ctx: AgentMcpContext) {
  if (!ctx.homeDir || !ctx.wicketHome) return undefined;
  const { homeDir, wicketHome } = ctx;
  return stdioSandbox({
    cwd: ctx.projectRoot,
    projectRoot: ctx.projectRoot,
    additionalDirs: ctx.additionalDirs ?? [],
    homeDir,
    wicketHome,
    env: ctx.env,
    settings: ctx.settings,
    rules: ctx.rules,
  });
}

/** Connects the agent's own servers (they start together) and checks the named ones; `close` ends them. */
export async function connectAgentServers(def: AgentServersRequest, ctx: AgentMcpContext): Promise<AgentServers> {
  const { entries, warnings } = agentMcpEntries(def, ctx.env, ctx.settings);
  for (const s of def.mcpServers ?? []) {
    if (!s.config && ctx.tools && !ctx.tools.some((t) => t.name.startsWith(`mcp__${s.name}__`))) {
      warnings.push(`agent ${def.name}: the MCP server "${s.name}" it names is not connected in this session (or offers no tools)`);
    }
  }
  if (!entries.length) return { tools: [], warnings, close: async () => {} };
  const servers = new McpServers(
    { servers: entries, unapproved: [], disabled: [], warnings: [] },
    {
      projectRoot: ctx.projectRoot,
      env: ctx.env,
      version: VERSION,
      ...mcpLimitsFromEnv(ctx.env),
      holdUnapproved: false,
      ...elicitation(),
      sandbox: agentSandbox(ctx),
    },
  );
  await servers.start();
  for (const s of servers.list())
    if (s.status === 'failed') warnings.push(`agent ${def.name}: its MCP server "${s.name}" failed: ${s.error ?? 'unknown error'}`);
  // A bare deny rule (`mcp__server`) still takes a server's tools away, as for the session's servers.
  const denied = (t: Tool) => (ctx.rules?.deny ?? []).some((r) => !r.error && r.specifier === undefined && ruleNamesTool(r.toolName, t.name, t.aliases));
  const tools = servers.tools().filter((t) => t.name.startsWith('mcp__') && !denied(t));
  // Tools that wait for ToolSearch need it at hand.
  if (tools.some(isDeferred) && toolSearchMode(ctx.env).kind !== 'off') tools.push(toolSearchTool);
  return { tools, warnings, close: () => servers.close() };
}
