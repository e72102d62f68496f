/**
 * The SDK's requests for figures and lists: get_context_usage (what the next request holds, by
 * part, estimated at four characters a token and topped by the API's last count), get_usage (what
 * the session spent), and the reloads of skills, output styles and plugins (read again from disk).
 */
import { contextWindowOf } from '../base/models.js';
import { requestParts } from '../core/model-request.js';
import { autoCompactThreshold } from '../core/compact.js';
import type { ControlPayload } from './control-channel.js';
import type { SdkContext } from './context.js';
import { agentInfos, outputStyleNames, slashCommands, type CatalogPlace } from './catalog.js';
import { mcpStatusList } from './requests-mcp.js';

const tokensOf = (value: unknown): number => Math.ceil((typeof value === 'string' ? value : JSON.stringify(value ?? '')).length / 4);

export function catalogPlace(ctx: SdkContext): CatalogPlace {
  return { cwd: ctx.setup.cwd, configDir: ctx.setup.configDir, noCommands: ctx.opts.disableSlashCommands };
}

export function registerInfoRequests(ctx: SdkContext): void {
  const ch = ctx.session.channel;
  ch.onRequest('get_context_usage', () => contextUsage(ctx));
  ch.onRequest('get_usage', () => usage(ctx));
  ch.onRequest('reload_skills', () => ({ skills: slashCommands(catalogPlace(ctx)) }));
  ch.onRequest('reload_output_styles', () => ({ available_output_styles: outputStyleNames(catalogPlace(ctx)) }));
  ch.onRequest('reload_plugins', () => ({
    commands: slashCommands(catalogPlace(ctx)),
    agents: agentInfos(catalogPlace(ctx)),
    plugins: ctx.setup.plugins.plugins.map((p) => ({ name: p.name, path: p.root, ...(p.version ? { version: p.version } : {}) })),
    mcpServers: mcpStatusList(ctx),
    error_count: ctx.setup.plugins.errors.length,
  }));
}

function contextUsage(ctx: SdkContext): ControlPayload {
  const agent = ctx.turns.agent;
  const parts = requestParts(ctx.messages, agent);
  const systemTokens = tokensOf(agent.system.map((b) => b.text).join('\n'));
  const mcp = parts.tools.filter((t) => t.name.startsWith('mcp__'));
  const builtin = parts.tools.filter((t) => !t.name.startsWith('mcp__'));
  const toolTokens = tokensOf(builtin);
  const mcpTokens = tokensOf(mcp);
  const messageTokens = tokensOf(ctx.messages);
  const max = contextWindowOf(agent.model);
  const estimated = systemTokens + toolTokens + mcpTokens + messageTokens;
  const total = Math.max(agent.state.contextTokens ?? 0, estimated);
  const category = (id: string, name: string, tokens: number, color: string, kind = 'used') => ({ id, name, tokens, color, kind });
  const categories = [
    category('system_prompt', 'System prompt', systemTokens, 'promptBorder'),
    category('system_tools', 'System tools', toolTokens, 'inactive'),
    ...(mcp.length ? [category('mcp_tools', 'MCP tools', mcpTokens, 'cyan_FOR_SUBAGENTS_ONLY')] : []),
    category('messages', 'Messages', messageTokens, 'purple_FOR_SUBAGENTS_ONLY'),
    category('free_space', 'Free space', Math.max(0, max - total), 'promptBorder', 'free'),
  ];
  const threshold = autoCompactThreshold(agent.env, agent.settings, agent.model);
  return {
    categories,
    totalTokens: total,
    maxTokens: max,
    rawMaxTokens: max,
    percentage: Math.round((total / max) * 1000) / 10,
    gridRows: [],
    model: agent.model,
    memoryFiles: [],
    mcpTools: mcp.map((t) => ({ name: t.name, serverName: t.name.split('__')[1] ?? '', tokens: tokensOf(t) })),
    systemTools: builtin.map((t) => ({ name: t.name, tokens: tokensOf(t) })),
    agents: [],
    isAutoCompactEnabled: threshold !== undefined,
    ...(threshold !== undefined ? { autoCompactThreshold: threshold } : {}),
    apiUsage: null,
  };
}

function usage(ctx: SdkContext): ControlPayload {
  const spent = ctx.turns.spent;
  const modelUsage: Record<string, unknown> = {};
  for (const [model, m] of spent.byModel)
    modelUsage[model] = {
      inputTokens: m.usage.input_tokens,
      outputTokens: m.usage.output_tokens,
      cacheReadInputTokens: m.usage.cache_read_input_tokens,
      cacheCreationInputTokens: m.usage.cache_creation_input_tokens,
      webSearchRequests: 0,
      costUSD: m.costUsd,
      contextWindow: contextWindowOf(model),
      maxOutputTokens: ctx.base.maxTokens ?? 32_000,
    };
  return {
    session: {
      total_cost_usd: Math.round(spent.costUsd * 1e8) / 1e8,
      total_api_duration_ms: spent.apiMs,
      total_duration_ms: Date.now() - ctx.turns.startedAt,
      total_lines_added: 0,
      total_lines_removed: 0,
      model_usage: modelUsage,
    },
    subscription_type: null,
    rate_limits_available: false,
    rate_limits: {},
  };
}
