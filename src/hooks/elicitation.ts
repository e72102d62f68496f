/**
 * Elicitation and ElicitationResult hooks (matcher: the MCP server's name): what they are told, and
 * how their verdicts merge. A hook answers with `hookSpecificOutput.{action, content}`; exit 2
 * declines (its stderr is shown to the person). Of several hooks, a decline by exit 2 wins, then the
 * first (in settings order) that gives a valid action.
 */
import { specific, type HookVerdict } from './output.js';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/** An MCP server's request for input (`elicitation/create`). */
export interface ElicitationHookInfo {
  /** The server's name in the settings. */
  server: string;
  message: string;
  mode: 'form' | 'url';
  /** form mode: the flat JSON schema of the fields asked for. */
  requestedSchema?: Record<string, unknown>;
  /** url mode: where the person is sent, and the id the server's completion notice names. */
  url?: string;
  elicitationId?: string;
}

export interface ElicitationResultHookInfo {
  server: string;
  mode: 'form' | 'url';
  action: ElicitationAction;
  content?: Record<string, unknown>;
  elicitationId?: string;
}

export interface ElicitationHookAnswer {
  action: ElicitationAction;
  /** Field values; only meaningful with accept. */
  content?: Record<string, unknown>;
  /** Set when a hook declined by exit 2: its message. */
  blocked?: string;
}

export function elicitationPayload(i: ElicitationHookInfo): Record<string, unknown> {
  return {
    mcp_server_name: i.server,
    message: i.message,
    mode: i.mode,
    ...(i.url !== undefined ? { url: i.url } : {}),
    ...(i.elicitationId !== undefined ? { elicitation_id: i.elicitationId } : {}),
    ...(i.requestedSchema !== undefined ? { requested_schema: i.requestedSchema } : {}),
  };
}

export function elicitationResultPayload(i: ElicitationResultHookInfo): Record<string, unknown> {
  return {
    mcp_server_name: i.server,
    action: i.action,
    ...(i.content !== undefined ? { content: i.content } : {}),
    mode: i.mode,
    ...(i.elicitationId !== undefined ? { elicitation_id: i.elicitationId } : {}),
  };
}

/** Undefined when no hook answered. */
export function combineElicitation(verdicts: HookVerdict[]): ElicitationHookAnswer | undefined {
  const blocked = verdicts.find((v) => v.blocking !== undefined);
  if (blocked) return { action: 'decline', blocked: blocked.blocking };
  for (const v of verdicts) {
    const { action, content } = specific(v.json);
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel') continue;
    const isObject = typeof content === 'object' && content !== null && !Array.isArray(content);
    return isObject ? { action, content: content as Record<string, unknown> } : { action };
  }
  return undefined;
}
