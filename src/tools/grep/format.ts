/** Grep output → the text the model reads, with notes on how to page or narrow. Pure. */
import { formatCount } from '../../base/paths.js';
import type { OutputMode } from './args.js';
import type { GrepSearchResult } from './search.js';

export interface GrepOutput extends GrepSearchResult {
  mode: OutputMode;
  pattern: string;
  /** The searched path (absolute). */
  root: string;
  offset: number;
  /** The line limit applied (0 = none). */
  limit: number;
  maxChars: number;
  durationMs: number;
}

const fmt = formatCount;
const plural = (n: number, one: string, many: string) => `${fmt(n)} ${n === 1 ? one : many}`;

function range(out: GrepOutput): string {
  return `${fmt(out.offset + 1)}–${fmt(out.offset + out.lines.length)}`;
}

function footer(out: GrepOutput): string[] {
  const notes: string[] = [];
  if (out.more) {
    const what = out.mode === 'content' ? 'lines' : 'entries';
    const of = out.total !== undefined ? ` of ${fmt(out.total)}` : '';
    const why = out.cutAtChars ? ` (cut at ${fmt(out.maxChars)} characters)` : '';
    notes.push(
      `(Showing ${what} ${range(out)}${of}${why}. Pass offset=${out.nextOffset} for the next page, or narrow the search with path, glob, type or a more specific pattern.)`,
    );
  }
  if (out.timedOut) notes.push('(The search timed out; results are incomplete. Narrow it with path, glob or type.)');
  if (out.unreadable) notes.push('(Some files could not be read and were skipped.)');
  return notes;
}

function emptyText(out: GrepOutput): string {
  if (out.offset > 0 && out.total !== undefined && out.total > 0) {
    return `No results at offset=${out.offset}: the search has ${plural(out.total, 'result line', 'result lines')} in all.`;
  }
  const lines = [`No matches for ${JSON.stringify(out.pattern)} in ${out.root}.`];
  if (out.timedOut) lines.push('The search timed out before finishing; narrow it with path, glob or type.');
  if (out.unreadable) lines.push('Some files could not be read and were skipped.');
  return lines.join('\n');
}

export function grepModelText(out: GrepOutput): string {
  if (out.lines.length === 0) return emptyText(out);
  const head: string[] = [];
  if (out.mode === 'files_with_matches') {
    const found = out.total !== undefined ? `Found ${plural(out.total, 'file', 'files')}` : `Found more than ${fmt(out.nextOffset)} files`;
    const paged = out.offset > 0 || out.more ? ` (showing ${range(out)})` : '';
    head.push(`${found}${paged}`);
  }
  const tail = footer(out);
  if (out.mode === 'count' && out.matches !== undefined && out.files !== undefined) {
    tail.unshift(`Found ${plural(out.matches, 'matching line', 'matching lines')} in ${plural(out.files, 'file', 'files')}.`);
  }
  return [...head, ...out.lines, ...tail].join('\n');
}

export function grepSummaryLine(out: GrepOutput): string {
  if (out.mode === 'count' && out.matches !== undefined) {
    return `Found ${plural(out.matches, 'match', 'matches')} in ${plural(out.files ?? 0, 'file', 'files')}`;
  }
  const unit = out.mode === 'content' ? ['line', 'lines'] : ['file', 'files'];
  const n = out.total ?? out.nextOffset;
  const plus = out.total === undefined && out.more ? '+' : '';
  return `Found ${fmt(n)}${plus} ${n === 1 && !plus ? unit[0] : unit[1]}`;
}
