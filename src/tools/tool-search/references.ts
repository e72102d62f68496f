/**
 * The conversation as a request with tool search needs it. The stored conversation is never changed:
 * - the tools ToolSearch loaded are read back from its `tool_reference` blocks;
 * - the model learns which tools are deferred from an `<available-deferred-tools>` list at the start
 *   of the first message (the same on every request, so the cached prefix holds);
 * - a tool_result holding references holds nothing else (the API refuses a mix): other blocks, such
 *   as a hook's added context, follow the results, and a short text closes the turn;
 * - references the request cannot honour (tool search off now, or the tool gone) become text.
 */
import type { ApiMessage, ContentBlock } from '../../base/events.js';

type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>;
type ResultPart = Exclude<ToolResultBlock['content'], string>[number];

/** Follows tool results that load tools, so the model's turn starts cleanly after the loaded definitions. */
export const TOOLS_LOADED_TEXT = 'Tool loaded.';

const isReference = (b: ResultPart): b is Extract<ResultPart, { type: 'tool_reference' }> => b.type === 'tool_reference';

/** Names of the tools loaded so far: every `tool_reference` in the conversation's tool results. */
export function loadedToolNames(messages: readonly ApiMessage[]): Set<string> {
  const names = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result' || typeof b.content === 'string') continue;
      for (const part of b.content) if (isReference(part)) names.add(part.tool_name);
    }
  }
  return names;
}

export function deferredToolsText(names: readonly string[]): string {
  return `<available-deferred-tools>\n${[...names].sort().join('\n')}\n</available-deferred-tools>`;
}

/** What one request offers: whether tool search is on, the deferred tools to list, the names of the tools sent. */
export interface RequestTools {
  on: boolean;
  deferred: readonly string[];
  sent: ReadonlySet<string>;
}

/** The messages for one request (copies where they differ from the conversation). */
export function prepareMessages(messages: readonly ApiMessage[], req: RequestTools): ApiMessage[] {
  const out = messages.map((m) => (m.role === 'user' && hasReference(m) ? { ...m, content: splitReferences(m.content as ContentBlock[], req) } : m));
  const first = out[0];
  if (req.on && req.deferred.length && first?.role === 'user') {
    const listed: ContentBlock = { type: 'text', text: deferredToolsText(req.deferred) };
    const rest: ContentBlock[] = typeof first.content === 'string' ? [{ type: 'text', text: first.content }] : first.content;
    // Tool results must come first in a message: the list goes after them (a conversation never starts so).
    const at = rest.findIndex((b) => b.type !== 'tool_result');
    out[0] = { ...first, content: at < 0 ? [...rest, listed] : [...rest.slice(0, at), listed, ...rest.slice(at)] };
  }
  return out;
}

function hasReference(m: ApiMessage): boolean {
  return typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result' && typeof b.content !== 'string' && b.content.some(isReference));
}

function splitReferences(content: ContentBlock[], req: RequestTools): ContentBlock[] {
  const results: ContentBlock[] = [];
  const after: ContentBlock[] = [];
  let loaded = false;
  for (const b of content) {
    if (b.type !== 'tool_result' || typeof b.content === 'string' || !b.content.some(isReference)) {
      (b.type === 'tool_result' ? results : after).push(b);
      continue;
    }
    const refs = b.content.filter(isReference);
    const others = b.content.filter((p) => !isReference(p)) as ContentBlock[];
    const keep = req.on ? refs.filter((r) => req.sent.has(r.tool_name)) : [];
    const notes = refs
      .filter((r) => !keep.includes(r))
      .map((r) => (req.sent.has(r.tool_name) ? `${r.tool_name} is loaded: it is in your tool list.` : `${r.tool_name} is not available any more.`));
    const note: ContentBlock[] = notes.length ? [{ type: 'text', text: notes.join('\n') }] : [];
    if (keep.length) {
      loaded = true;
      results.push({ ...b, content: keep });
      after.push(...others, ...note);
    } else {
      results.push({ ...b, content: [...note, ...others] as ResultPart[] });
    }
  }
  if (loaded && !after.some((b) => b.type === 'text')) after.push({ type: 'text', text: TOOLS_LOADED_TEXT });
  return [...results, ...after];
}
