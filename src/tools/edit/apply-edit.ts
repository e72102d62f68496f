/**
 * The pure heart of Edit: exact string replacement that keeps what the model cannot see. The model
 * writes LF; a CRLF file is edited in LF and converted back, a mixed file is edited as it is.
 */
import { detectLineEnding, toCrlf, toLf } from '../fs/encoding.js';

export type EditResult =
  | {
      ok: true;
      /** The new content, in the file's own line endings. */
      content: string;
      replacements: number;
      /** 1-based line where the first replacement starts. */
      firstLine: number;
      /** Lines spanned by one replacement text. */
      newLineCount: number;
    }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'ambiguous'; count: number };

export function applyEdit(content: string, oldString: string, newString: string, replaceAll: boolean): EditResult {
  const eol = detectLineEnding(content);
  if (eol === 'crlf') {
    const r = replaceIn(toLf(content), toLf(oldString), toLf(newString), replaceAll);
    return r.ok ? { ...r, content: toCrlf(r.content) } : r;
  }
  if (eol === 'lf') return replaceIn(content, toLf(oldString), toLf(newString), replaceAll);
  const asIs = replaceIn(content, oldString, newString, replaceAll);
  if (asIs.ok || asIs.reason === 'ambiguous' || !oldString.includes('\n')) return asIs;
  return replaceIn(content, toCrlf(toLf(oldString)), toCrlf(toLf(newString)), replaceAll);
}

/** Non-overlapping occurrences of `needle` (not empty) in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  let i = haystack.indexOf(needle);
  while (i !== -1) {
    count++;
    i = haystack.indexOf(needle, i + needle.length);
  }
  return count;
}

function replaceIn(work: string, oldString: string, newString: string, replaceAll: boolean): EditResult {
  let old = oldString;
  // Deleting a whole line: take its newline too, so no blank line is left behind.
  if (newString === '' && old !== '' && !old.endsWith('\n')) {
    const withNewline = countOccurrences(work, `${old}\n`);
    if (withNewline > 0 && withNewline === countOccurrences(work, old)) old = `${old}\n`;
  }
  if (old === '') return { ok: false, reason: 'not-found' };
  const count = countOccurrences(work, old);
  if (count === 0) return { ok: false, reason: 'not-found' };
  if (count > 1 && !replaceAll) return { ok: false, reason: 'ambiguous', count };
  const first = work.indexOf(old);
  const content = replaceAll ? work.split(old).join(newString) : work.slice(0, first) + newString + work.slice(first + old.length);
  return {
    ok: true,
    content,
    replacements: count,
    firstLine: countOccurrences(work.slice(0, first), '\n') + 1,
    newLineCount: countOccurrences(newString, '\n') + 1,
  };
}
