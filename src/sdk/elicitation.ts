/**
 * An MCP server's request for input (`elicitation/create`), when no Elicitation hook answered it,
 * goes to the SDK host as Claude Code sends it: an `elicitation` control request, answered by the
 * host's `onElicitation` (the SDK declines by itself when the program has none). An answer that is
 * not one of accept, decline or cancel, an error, or none at all cancels the request.
 */
import { elicitationPayload } from '../hooks/elicitation.js';
import type { AskPerson, ElicitationAnswer } from '../mcp/elicitation.js';
import { cleanContent } from '../mcp/elicitation-form.js';
import type { SdkSession } from './session.js';

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

export function sdkElicitation(session: SdkSession): AskPerson {
  return async (req, signal) => {
    const answer = await session.channel.request('elicitation', elicitationPayload(req), { signal }).catch(() => undefined);
    if (!answer || typeof answer.action !== 'string' || !ACTIONS.has(answer.action)) return { action: 'cancel' };
    const action = answer.action as ElicitationAnswer['action'];
    if (action !== 'accept' || req.mode === 'url') return { action };
    const content = cleanContent(answer.content);
    return content ? { action, content } : { action };
  };
}
