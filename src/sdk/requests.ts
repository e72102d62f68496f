/**
 * Every request the SDK's Query can send, answered: those below by their modules, initialize by
 * the session's start. A request with no handler gets an error (control-channel.ts), never silence.
 */
import { chooseProvider } from '../api/providers/choose.js';
import { apiKeySource } from './messages.js';
import type { AgentOptions } from '../core/agent-options.js';
import { VERSION } from '../base/version.js';
import type { ControlPayload } from './control-channel.js';
import type { SdkContext } from './context.js';
import { agentInfos, modelInfos, outputStyleNames, skillNames, slashCommands } from './catalog.js';
import type { AppliedFields } from './initialize.js';
import { initMessage } from './messages.js';
import { registerFileRequests } from './requests-files.js';
import { catalogPlace, registerInfoRequests } from './requests-info.js';
import { mcpStatusList, registerMcpRequests } from './requests-mcp.js';
import { registerSessionRequests } from './requests-session.js';

export function registerRequests(ctx: SdkContext): void {
  registerSessionRequests(ctx);
  registerInfoRequests(ctx);
  registerFileRequests(ctx);
  registerMcpRequests(ctx);
}

/** The answer to initialize: what Claude Code answers that wicket can fill in truly. */
export function initializeAnswer(ctx: SdkContext, applied: AppliedFields, hooksApplied: boolean | undefined): ControlPayload {
  const place = catalogPlace(ctx);
  const env = ctx.base.env;
  return {
    commands: slashCommands(place),
    agents: agentInfos(place),
    output_style: ctx.base.outputStyle ?? 'default',
    available_output_styles: outputStyleNames(place),
    models: modelInfos(),
    account: {
      tokenSource: env.ANTHROPIC_AUTH_TOKEN ? 'ANTHROPIC_AUTH_TOKEN' : 'none',
      apiKeySource: apiKeySource(ctx.base),
      apiProvider: chooseProvider(env).kind,
    },
    pid: process.pid,
    current_permission_mode: ctx.base.permission.mode,
    hook_on_failure_supported: true,
    ...(hooksApplied !== undefined ? { hooks_applied: hooksApplied } : {}),
    ...applied,
    session_state: ctx.turns.running ? 'running' : 'idle',
    fast_mode_state: 'off',
    analytics_disabled: true,
    sandbox_enabled: ctx.base.settings.sandbox !== undefined && (ctx.base.settings.sandbox as { enabled?: unknown }).enabled === true,
    wicket_version: VERSION,
  };
}

/** The system/init line of a turn. */
export function initLine(ctx: SdkContext, agent: AgentOptions): Record<string, unknown> {
  const place = catalogPlace(ctx);
  const servers = mcpStatusList(ctx).map((s) => ({ name: s.name as string, status: s.status as string }));
  return initMessage(agent, servers, ctx.setup.plugins, {
    slashCommands: slashCommands(place).map((c) => c.name),
    agents: agentInfos(place).map((a) => a.name),
    skills: skillNames(place),
    additionalDirectories: agent.additionalDirs,
  });
}
