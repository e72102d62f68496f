/**
 * The line `--output-format text` ends with on stderr when calls were denied, so that the author of
 * a script sees why nothing changed: how many, which tools, and where to allow them.
 */
import type { AgentEvent } from '../base/events.js';
import { ALLOW_PLACES } from '../permissions/denial-text.js';

type Denial = Extract<AgentEvent, { type: 'permission_denied' }>;

/** At most this many suggested rules are spelled out. */
const MAX_RULES = 5;

/** One line (with its newline), or '' when nothing was denied. */
export function denialNote(denials: readonly Denial[]): string {
  const n = denials.length;
  if (!n) return '';
  const allowable = denials.filter((d) => d.unasked && d.allowWith);
  const personOnly = denials.filter((d) => d.unasked && !d.allowWith);
  const ruled = n - allowable.length - personOnly.length;
  const head = `wicket: ${n} tool call${n === 1 ? ' was' : 's were'} denied (${toolCounts(denials)})`;
  if (ruled === n) return `${head} by a deny rule, the permission mode or a hook\n`;
  const parts: string[] = [];
  if (allowable.length)
    parts.push(
      `${count(allowable.length, n, 'needs', 'need')} permission and nobody could be asked: allow ${allowable.length === 1 ? 'it' : 'them'} with ${flag(allowable)} or in ${ALLOW_PLACES}`,
    );
  if (personOnly.length)
    parts.push(`${count(personOnly.length, n, 'needs', 'need')} a person's approval (an ask rule, a protected path), and nobody could be asked`);
  if (ruled) parts.push(`${ruled} by a deny rule, the permission mode or a hook`);
  return `${head}: ${parts.join('; ')}\n`;
}

/** "it needs" / "they need" when the group is all of them, else "2 need" / "1 needs". */
function count(k: number, n: number, one: string, many: string): string {
  if (k === n) return n === 1 ? `it ${one}` : `they ${many}`;
  return `${k} ${k === 1 ? one : many}`;
}

/** `--allowedTools "Edit(a.txt)" "Bash(npm test:*)"`, or the bare flag when no rule was suggested. */
function flag(denials: readonly Denial[]): string {
  const rules = [...new Set(denials.flatMap((d) => d.allowWith ?? []))];
  if (!rules.length) return '--allowedTools';
  return `--allowedTools ${rules
    .slice(0, MAX_RULES)
    .map((r) => `"${r}"`)
    .join(' ')}${rules.length > MAX_RULES ? ' …' : ''}`;
}

/** "Edit", "Bash ×2, Read". */
function toolCounts(denials: readonly Denial[]): string {
  const counts = new Map<string, number>();
  for (const d of denials) counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
  return [...counts].map(([name, c]) => (c > 1 ? `${name} ×${c}` : name)).join(', ');
}
