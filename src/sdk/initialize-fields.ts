/**
 * The fields of `initialize` beyond those wicket applies (initialize.ts): the plugins a host sends
 * there (`pluginDelivery: 'initialize'`), those wicket refuses because going on without them would
 * do more than the host allowed, and those it cannot honour, said once each so that none is
 * silently ignored.
 */
import { ControlError, isObject } from './control-channel.js';
import type { InitializeRequest } from './session.js';

/** Fields whose absence would let a call run that the host meant to go elsewhere: the session does not start. */
const REFUSED: Record<string, string> = {
  toolAliases:
    'initialize.toolAliases is not available in wicket, which cannot route one tool name to another: the session is not started, so that no call runs as the tool its host replaced',
};

/** Fields wicket does not act on, with what happens instead. */
const NOT_HONOURED: Record<string, string> = {
  planModeInstructions: 'plan mode keeps wicket’s own instructions',
  promptSuggestions: 'no prompt_suggestion messages are sent',
  agentProgressSummaries: 'sub-agents send no progress summaries',
  forwardSubagentText: 'a sub-agent’s text is not forwarded',
  forwardNestedSubagentToolCalls: 'nested sub-agents’ tool calls are not forwarded',
  supportedDialogKinds: 'no request_user_dialog is sent',
  perTaskStopAffordance: 'an interrupt stops background tasks as it always does',
  excludeDynamicSections: 'the system prompt keeps its dynamic sections',
  systemPromptSnapshot: 'the system prompt is built afresh',
  appendSubagentSystemPrompt: 'sub-agents get their own prompts only',
  codeRunningMcpTools: 'MCP tools are gated as any other tool',
  webSearchIsolationExemptMcpServers: 'no MCP server is exempted',
  rapidFollowupPreempt: 'a follow-up waits for the turn that runs',
  offersBypassSwitchBack: 'ignored',
  keepsBypassHeld: 'ignored',
  workspaceTrust: 'the folder’s trust is read from wicket’s own record',
};

/** Whether a field carries something (an empty list, false or an empty text asks for nothing). */
function given(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return true;
}

/** Throws for a field wicket refuses; returns a warning for each one it does not honour. */
export function unhonouredFields(init: InitializeRequest | undefined): string[] {
  if (!init) return [];
  for (const [field, why] of Object.entries(REFUSED)) if (given(init[field])) throw new ControlError(why, 'unsupported');
  const notes = Object.entries(NOT_HONOURED)
    .filter(([field]) => given(init[field]))
    .map(([field, instead]) => `initialize.${field} is not available in wicket: ${instead}`);
  // 'all' is what wicket does anyway; a list would hide the others from the model.
  if (Array.isArray(init.skills) && init.skills.length)
    notes.push('initialize.skills: wicket cannot narrow the skills to a list; every skill found is offered');
  return notes;
}

/** `initialize.plugins` (`[{type: 'local', path}]`): the folders to load, as --plugin-dir. */
export function initializePlugins(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw new ControlError('initialize.plugins must be a list of {type: "local", path}', 'invalid_request');
  return raw.map((p) => {
    if (!isObject(p) || p.type !== 'local' || typeof p.path !== 'string' || !p.path)
      throw new ControlError('initialize.plugins: each plugin must be {type: "local", path}', 'invalid_request');
    // Loading its MCP servers anyway would start programs the host left out.
    if (p.skipMcpDiscovery === true)
      throw new ControlError(`wicket cannot load the plugin ${p.path} without its MCP servers (skipMcpDiscovery)`, 'unsupported');
    return p.path;
  });
}
