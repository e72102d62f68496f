/**
 * Claude Code writes a reply with several tool calls as one assistant record per block, each the
 * parent of the next, and each call's result as a user record whose parent is the record of its own
 * call. The chain followed back from the newest record then passes through only the last call's
 * result: the others hang off the chain. Claude Code puts them back when it resumes, and so does
 * this: after each reply's records, the results of its calls that are off the chain join those on
 * it, in the order they were written.
 */

type Entry = Record<string, unknown>;

/** The ids of the tool calls an assistant record holds. */
function callIds(e: Entry): string[] {
  const content = (e.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) => (b && typeof b === 'object' && b.type === 'tool_use' && typeof b.id === 'string' ? [b.id as string] : []));
}

/** The calls a user record answers, when it holds tool results and nothing else; else undefined. */
function answered(e: Entry): string[] | undefined {
  if (e.type !== 'user') return undefined;
  const content = (e.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content) || !content.length) return undefined;
  const ids: string[] = [];
  for (const b of content) {
    if (!b || typeof b !== 'object' || b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') return undefined;
    ids.push(b.tool_use_id);
  }
  return ids;
}

function messageId(e: Entry): unknown {
  return e.type === 'assistant' ? (e.message as { id?: unknown } | undefined)?.id : undefined;
}

/** The chain with the results of parallel calls that hang off it put back after their reply. */
export function withParallelResults(chain: readonly Entry[], entries: readonly Entry[]): Entry[] {
  const onChain = new Set(chain.map((e) => e.uuid));
  const offByParent = new Map<string, Entry[]>();
  const order = new Map<Entry, number>();
  entries.forEach((e, i) => {
    order.set(e, i);
    if (e.type !== 'user' || e.isSidechain === true || onChain.has(e.uuid) || typeof e.parentUuid !== 'string') return;
    if (!answered(e)) return;
    offByParent.set(e.parentUuid, [...(offByParent.get(e.parentUuid) ?? []), e]);
  });
  if (!offByParent.size) return [...chain];
  const out: Entry[] = [];
  let group: Entry[] = [];
  for (let i = 0; i < chain.length; i++) {
    const e = chain[i]!;
    out.push(e);
    if (e.type !== 'assistant') continue;
    group = group.length && messageId(group[0]!) !== undefined && messageId(group[0]!) === messageId(e) ? [...group, e] : [e];
    const next = chain[i + 1];
    if (next?.type === 'assistant' && messageId(next) !== undefined && messageId(next) === messageId(e)) continue;
    // The end of one reply's records: its results on the chain, and those off it.
    const calls = new Set(group.flatMap(callIds));
    const results: Entry[] = [];
    while (chain[i + 1] && answered(chain[i + 1]!)?.every((id) => calls.has(id))) results.push(chain[++i]!);
    const done = new Set(results.flatMap((r) => answered(r) ?? []));
    for (const g of group)
      for (const r of offByParent.get(g.uuid as string) ?? []) {
        const ids = answered(r)!;
        if (!ids.every((id) => calls.has(id) && !done.has(id))) continue;
        for (const id of ids) done.add(id);
        results.push(r);
      }
    out.push(...results.sort((a, b) => order.get(a)! - order.get(b)!));
    group = [];
  }
  return out;
}
