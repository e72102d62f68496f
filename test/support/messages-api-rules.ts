/**
 * The Messages API's rules for a request body, as the real API enforces them (and a little stricter:
 * tool_results must answer tool_uses in the same order). Used by the fake server on every request;
 * also usable directly on a conversation built in a unit test: `findViolations({ model, max_tokens, messages })`.
 *
 * Checked: model and max_tokens present; at least one message; roles alternate user/assistant starting
 * with user; no empty content (except a final assistant prefill) and no empty text blocks; tool_use ids
 * unique; every tool_use answered by exactly one tool_result in the immediately following user message,
 * in tool_use order, with the tool_results before any other block; no tool_result without a tool_use in
 * the previous message. Tool search: `defer_loading` tools and `tool_reference` blocks need the
 * advanced-tool-use beta; not every tool may be deferred; a reference stands only in a tool_result's
 * content, with nothing but references beside it, and names a tool the request defines.
 */

type Block = Record<string, unknown> & { type?: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

const idsOf = (blocks: Block[], type: string, key: string): string[] => blocks.filter((b) => b.type === type).map((b) => String(b[key]));

const TOOL_SEARCH_BETAS = ['advanced-tool-use-2025-11-20', 'tool-search-tool-2025-10-19'];

/** Every rule the request breaks, as `messages.N…: reason` lines (empty when valid). `betas`: the anthropic-beta header's. */
export function findViolations(body: unknown, betas: readonly string[] = []): string[] {
  if (!isObject(body)) return ['body: must be a JSON object'];
  const out: string[] = [];
  if (typeof body.model !== 'string' || body.model === '') out.push('model: field required');
  if (typeof body.max_tokens !== 'number') out.push('max_tokens: field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    out.push('messages: at least one message is required');
    return out;
  }
  const messages: unknown[] = body.messages;
  const seenToolUseIds = new Set<string>();
  messages.forEach((m, i) => out.push(...checkMessage(messages, i, seenToolUseIds)));
  out.push(...checkToolSearch(body, messages, betas));
  return out;
}

function checkToolSearch(body: Record<string, unknown>, messages: unknown[], betas: readonly string[]): string[] {
  const out: string[] = [];
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const names = new Set(tools.map((t) => String(t.name)));
  const beta = betas.some((b) => TOOL_SEARCH_BETAS.includes(b));
  const deferred = tools.filter((t) => t.defer_loading === true);
  if (deferred.length && !beta) out.push(`tools: defer_loading requires the beta header ${TOOL_SEARCH_BETAS[0]}`);
  if (deferred.length && deferred.length === tools.length) out.push('tools: all tools have defer_loading set; at least one tool must not be deferred');
  messages.forEach((m, i) => {
    blocksOf(isObject(m) ? m.content : undefined).forEach((b, j) => {
      const at = `messages.${i}.content.${j}`;
      if (b.type === 'tool_reference') out.push(`${at}: tool_reference blocks are allowed only inside tool_result content`);
      if (b.type !== 'tool_result') return;
      const parts = blocksOf(b.content);
      const refs = parts.filter((p) => p.type === 'tool_reference');
      if (!refs.length) return;
      if (!beta) out.push(`${at}: tool_reference requires the beta header ${TOOL_SEARCH_BETAS[0]}`);
      if (refs.length !== parts.length) out.push(`${at}: a tool_result with tool_reference blocks may hold nothing else`);
      for (const r of refs) if (!names.has(String(r.tool_name))) out.push(`${at}: tool_reference names ${String(r.tool_name)}, which is not in tools`);
    });
  });
  return out;
}

function checkMessage(messages: unknown[], i: number, seen: Set<string>): string[] {
  const m = messages[i];
  const role = isObject(m) ? m.role : undefined;
  if (role !== 'user' && role !== 'assistant') return [`messages.${i}.role: must be "user" or "assistant"`];
  const out: string[] = [];
  const expected = i % 2 === 0 ? 'user' : 'assistant';
  if (role !== expected) out.push(`messages.${i}: roles must alternate user/assistant starting with user; got "${role}"`);
  const blocks = blocksOf(isObject(m) ? m.content : undefined);
  if (blocks.length === 0 && !(role === 'assistant' && i === messages.length - 1)) {
    out.push(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
  }
  blocks.forEach((b, j) => {
    if (b.type === 'text' && b.text === '') out.push(`messages.${i}.content.${j}: text content blocks must be non-empty`);
  });
  if (role === 'assistant') out.push(...checkToolUses(messages, i, blocks, seen));
  else out.push(...checkToolResults(messages, i, blocks));
  return out;
}

function checkToolUses(messages: unknown[], i: number, blocks: Block[], seen: Set<string>): string[] {
  const out: string[] = [];
  const ids = idsOf(blocks, 'tool_use', 'id');
  for (const id of ids) {
    if (seen.has(id)) out.push(`messages.${i}: tool_use ids must be unique; "${id}" is used more than once`);
    seen.add(id);
  }
  const next = messages[i + 1];
  if (ids.length > 0 && (!isObject(next) || next.role !== 'user')) {
    out.push(
      `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${ids.join(', ')}. ` +
        'Each tool_use block must have a corresponding tool_result block in the next message.',
    );
  }
  return out;
}

function checkToolResults(messages: unknown[], i: number, blocks: Block[]): string[] {
  const prev = messages[i - 1];
  const uses = isObject(prev) && prev.role === 'assistant' ? idsOf(blocksOf(prev.content), 'tool_use', 'id') : [];
  const results = idsOf(blocks, 'tool_result', 'tool_use_id');
  const out: string[] = [];
  for (const id of new Set(results)) {
    if (!uses.includes(id)) {
      out.push(
        `messages.${i}: unexpected tool_use_id found in tool_result blocks: ${id}. ` +
          'Each tool_result block must have a corresponding tool_use block in the previous message.',
      );
    } else if (results.filter((r) => r === id).length > 1) {
      out.push(`messages.${i}: multiple tool_result blocks for tool_use_id ${id}`);
    }
  }
  const missing = uses.filter((id) => !results.includes(id));
  if (missing.length > 0) {
    out.push(
      `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}. ` +
        'Each tool_use block must have a corresponding tool_result block in the next message.',
    );
  }
  const answered = results.filter((id, k) => uses.includes(id) && results.indexOf(id) === k);
  const expectedOrder = uses.filter((id) => answered.includes(id));
  if (answered.join() !== expectedOrder.join()) {
    out.push(
      `messages.${i}: tool_result blocks must follow the order of the tool_use blocks (expected ${expectedOrder.join(', ')}; got ${answered.join(', ')})`,
    );
  }
  const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
  const lastResult = blocks.map((b) => b.type).lastIndexOf('tool_result');
  if (firstOther !== -1 && firstOther < lastResult) {
    out.push(`messages.${i}: tool_result blocks must come first in the user message, before any other content`);
  }
  return out;
}
