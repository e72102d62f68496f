/**
 * The line `--output-format text` ends with on stderr when calls were denied, so that the author of
 * a script sees why nothing changed: how many, which tools, and where to allow them.
 */
import type { AgentEvent } from '../core/events.js';
import { ALLOW_PLACES } from '../permissions/denial-text.js';

type Denial = Extract<AgentEvent, { type: 'permission_denied' }>;

/** At most this many suggested rules are spelled out. */
const MAX_RULES = 5;

/** One line (with its newline), or '' when nothing was denied. */
export function denialNote(denials: readonly Denial[]): string {
  const n = denials.length;
  if (!n) return '';
  const head = `wicket: ${n} tool call${n === 1 ? ' was' : 's were'} denied (${toolCounts(denials)})`;
  const unasked = denials.filter((d) => d.unasked);
  const ruled = n - unasked.length;
  const ruledPart = ruled ? `${ruled === n ? '' : `${ruled} `}by a deny rule, the permission mode or a hook` : '';
  if (!unasked.length) return `${head} ${ruledPart}\n`;
  const rules = [...new Set(unasked.flatMap((d) => d.allowWith ?? []))];
  const flag = rules.length ? `--allowedTools ${rules.slice(0, MAX_RULES).map((r) => `"${r}"`).join(' ')}${rules.length > MAX_RULES ? ' …' : ''}` : '--allowedTools';
  const who = unasked.length === n ? (n === 1 ? 'it needs' : 'they need') : `${unasked.length} need`;
  const unaskedPart = `${who} permission and print mode has no one to ask: allow ${unasked.length === 1 ? 'it' : 'them'} with ${flag} or in ${ALLOW_PLACES}`;
  return `${head}: ${[unaskedPart, ruledPart].filter(Boolean).join('; ')}\n`;
}

/** "Edit", "Bash ×2, Read". */
function toolCounts(denials: readonly Denial[]): string {
  const counts = new Map<string, number>();
  for (const d of denials) counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
  return [...counts].map(([name, c]) => (c > 1 ? `${name} ×${c}` : name)).join(', ');
}
