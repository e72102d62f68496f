/**
 * When old_string is not in the file, find what the model most likely meant, so the refusal can
 * point at it: Read's line-number prefixes pasted along, curly vs straight quotes, different
 * indentation or whitespace, or else the most similar stretch of lines. Pure; never edits.
 */
import { countOccurrences } from './apply-edit.js';

export type NearMatchKind = 'line-numbers' | 'quotes' | 'indentation' | 'whitespace' | 'similar';

export interface NearMatch {
  kind: NearMatchKind;
  /** 1-based line where the match starts. */
  line: number;
  /** The text as it is in the file. */
  text: string;
}

const MAX_SIMILAR_SCAN_LINES = 50_000;
const MIN_SIMILARITY = 0.6;

/** Both arguments use LF line endings. */
export function findNearMatch(content: string, oldString: string): NearMatch | undefined {
  if (oldString.trim() === '') return undefined;
  return (
    withoutLineNumbers(content, oldString) ?? withOtherQuotes(content, oldString) ?? withOtherWhitespace(content, oldString) ?? mostSimilar(content, oldString)
  );
}

function lineAt(content: string, index: number): number {
  return countOccurrences(content.slice(0, index), '\n') + 1;
}

/** `12\tconst x` copied from Read's output. */
function withoutLineNumbers(content: string, old: string): NearMatch | undefined {
  const lines = old.split('\n');
  if (!lines.every((l) => l === '' || /^\s*\d+\t/.test(l))) return undefined;
  const stripped = lines.map((l) => l.replace(/^\s*\d+\t/, '')).join('\n');
  const i = content.indexOf(stripped);
  return i === -1 ? undefined : { kind: 'line-numbers', line: lineAt(content, i), text: stripped };
}

const QUOTES: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
};

export function normalizeQuotes(s: string): string {
  return s.replace(/[\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f]/g, (c) => QUOTES[c] ?? c);
}

function withOtherQuotes(content: string, old: string): NearMatch | undefined {
  const i = normalizeQuotes(content).indexOf(normalizeQuotes(old));
  if (i === -1) return undefined;
  return { kind: 'quotes', line: lineAt(content, i), text: content.slice(i, i + old.length) };
}

function squash(line: string): string {
  return normalizeQuotes(line).trim().replace(/\s+/g, ' ');
}

function significantLines(old: string): string[] {
  const lines = old.split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  return lines;
}

function withOtherWhitespace(content: string, old: string): NearMatch | undefined {
  const want = significantLines(old);
  if (want.length === 0) return undefined;
  const wantSquashed = want.map(squash);
  const lines = content.split('\n');
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (squash(lines[i]!) !== wantSquashed[0]) continue;
    let all = true;
    for (let j = 1; j < want.length && all; j++) all = squash(lines[i + j]!) === wantSquashed[j];
    if (!all) continue;
    const found = lines.slice(i, i + want.length);
    const onlyIndent = found.every((l, j) => l.trim() === want[j]!.trim());
    return { kind: onlyIndent ? 'indentation' : 'whitespace', line: i + 1, text: found.join('\n') };
  }
  return undefined;
}

/** Bigram counts of a line, for Dice similarity. */
function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient of two lines in [0, 1]: shared bigrams over all bigrams. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const ga = bigrams(a);
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = ga.get(g) ?? 0;
    if (n > 0) {
      shared++;
      ga.set(g, n - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

function mostSimilar(content: string, old: string): NearMatch | undefined {
  const want = significantLines(old).slice(0, 20).map(squash);
  if (want.length === 0 || want.join('').length < 4) return undefined;
  const lines = content.split('\n');
  if (lines.length > MAX_SIMILAR_SCAN_LINES) return undefined;
  const squashed = lines.map(squash);
  let best = { score: 0, line: -1 };
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (similarity(want[0]!, squashed[i]!) < MIN_SIMILARITY) continue;
    let total = 0;
    for (let j = 0; j < want.length; j++) total += similarity(want[j]!, squashed[i + j]!);
    const score = total / want.length;
    if (score > best.score) best = { score, line: i };
  }
  if (best.line === -1 || best.score < MIN_SIMILARITY) return undefined;
  return { kind: 'similar', line: best.line + 1, text: lines.slice(best.line, best.line + want.length).join('\n') };
}

const KIND_TEXT: Record<NearMatchKind, string> = {
  'line-numbers': "matches once the line-number prefixes (Read's `N<TAB>`) are removed",
  quotes: 'differs only in quote style (curly vs straight quotes)',
  indentation: 'differs only in indentation',
  whitespace: 'differs only in whitespace',
  similar: 'is the most similar text',
};

/** The sentence the refusal adds: where the near match is and how it differs. */
export function describeNearMatch(m: NearMatch): string {
  const lines = m.text.split('\n');
  const shown = lines.slice(0, 20).join('\n').slice(0, 2000);
  const more = lines.length > 20 ? `\n… (${lines.length - 20} more lines)` : '';
  return `The closest match, at line ${m.line}, ${KIND_TEXT[m.kind]}:\n${shown}${more}`;
}
