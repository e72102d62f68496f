/**
 * ToolSearch's matching, as Claude Code does it: `select:A,B` picks tools by name; a query that is
 * exactly a tool's name picks that tool; `mcp__server` picks that server's tools; otherwise the
 * words are keywords, scored against each deferred tool's name parts, search hint and description
 * (`+word` must match for a tool to count at all), best first.
 */

/** What the search sees of a tool. */
export interface Searchable {
  name: string;
  description: string;
  searchHint?: string;
}

export const DEFAULT_MAX_RESULTS = 5;

/**
 * The names `query` selects among `deferred` (the tools not loaded yet). `all` is every tool of the
 * agent: selecting one already loaded is harmless, and lets the model go on instead of retrying.
 */
export function searchTools(query: string, deferred: readonly Searchable[], all: readonly Searchable[], maxResults = DEFAULT_MAX_RESULTS): string[] {
  const max = Number.isFinite(maxResults) && maxResults >= 1 ? Math.floor(maxResults) : DEFAULT_MAX_RESULTS;
  const select = /^select:(.+)$/is.exec(query.trim());
  if (select) return selectByName(select[1]!, deferred, all);
  return searchByKeywords(query, deferred, all, max);
}

/** `select:A, B`: each name found (case-insensitively), deferred tools first; unknown names are skipped. */
function selectByName(list: string, deferred: readonly Searchable[], all: readonly Searchable[]): string[] {
  const found: string[] = [];
  for (const wanted of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const tool = byName(deferred, wanted) ?? byName(all, wanted);
    if (tool && !found.includes(tool.name)) found.push(tool.name);
  }
  return found;
}

function byName(tools: readonly Searchable[], name: string): Searchable | undefined {
  const lower = name.toLowerCase();
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.name.toLowerCase() === lower);
}

function searchByKeywords(query: string, deferred: readonly Searchable[], all: readonly Searchable[], max: number): string[] {
  const q = query.toLowerCase().trim();
  if (!q) return [];
  // A bare tool name (the model forgot `select:`).
  const exact = deferred.find((t) => t.name.toLowerCase() === q) ?? all.find((t) => t.name.toLowerCase() === q);
  if (exact) return [exact.name];
  // `mcp__server` or `mcp__server__to`: the tools whose names start so.
  if (q.startsWith('mcp__') && q.length > 5) {
    const prefixed = deferred.filter((t) => t.name.toLowerCase().startsWith(q)).slice(0, max);
    if (prefixed.length) return prefixed.map((t) => t.name);
  }
  const terms = q.split(/\s+/).filter(Boolean);
  const required = terms.filter((t) => t.startsWith('+') && t.length > 1).map((t) => t.slice(1));
  const scoring = required.length ? [...required, ...terms.filter((t) => !(t.startsWith('+') && t.length > 1))] : terms;
  const candidates = deferred.map(indexed).filter((t) => required.every((term) => matchesAnywhere(t, term)));
  return candidates
    .map((t) => ({ name: t.tool.name, score: scoreOf(t, scoring) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((s) => s.name);
}

/** A tool prepared for scoring: its name split into words, its texts lower-cased. */
interface Indexed {
  tool: Searchable;
  parts: string[];
  full: string;
  isMcp: boolean;
  description: string;
  hint: string;
}

/** `mcp__slack__send_message` → slack, send, message; `NotebookEdit` → notebook, edit. */
export function nameParts(name: string): { parts: string[]; full: string; isMcp: boolean } {
  if (name.startsWith('mcp__')) {
    const rest = name.slice(5).toLowerCase();
    return {
      parts: rest
        .split('__')
        .flatMap((p) => p.split('_'))
        .filter(Boolean),
      full: rest.replace(/__/g, ' ').replace(/_/g, ' '),
      isMcp: true,
    };
  }
  const parts = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  return { parts, full: parts.join(' '), isMcp: false };
}

function indexed(tool: Searchable): Indexed {
  return { tool, ...nameParts(tool.name), description: tool.description.toLowerCase(), hint: (tool.searchHint ?? '').toLowerCase() };
}

const patterns = new Map<string, RegExp>();

/** The term as a whole word. */
function wordPattern(term: string): RegExp {
  let p = patterns.get(term);
  if (!p) {
    p = new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
    if (patterns.size > 256) patterns.clear();
    patterns.set(term, p);
  }
  return p;
}

function matchesAnywhere(t: Indexed, term: string): boolean {
  const p = wordPattern(term);
  return t.parts.some((part) => part.includes(term)) || p.test(t.description) || (t.hint !== '' && p.test(t.hint));
}

/** A name part equal to the term weighs most (more for MCP tools), then one containing it, the hint, the description. */
function scoreOf(t: Indexed, terms: readonly string[]): number {
  let score = 0;
  for (const term of terms) {
    const p = wordPattern(term);
    if (t.parts.includes(term)) score += t.isMcp ? 12 : 10;
    else if (t.parts.some((part) => part.includes(term))) score += t.isMcp ? 6 : 5;
    if (score === 0 && t.full.includes(term)) score += 3;
    if (t.hint && p.test(t.hint)) score += 4;
    if (p.test(t.description)) score += 2;
  }
  return score;
}
