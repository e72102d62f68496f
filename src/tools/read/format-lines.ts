/** How lines look to the model: `N<TAB>line`, 1-based, long lines cut with a marker. */

/**
 * Cuts a line at `max` characters. `fullLength` is the line's real length (the streaming reader
 * keeps only a prefix of very long lines).
 */
export function cutLine(text: string, fullLength: number, max: number): { line: string; cut: boolean } {
  if (fullLength <= max) return { line: text, cut: false };
  return { line: `${text.slice(0, max)}… [line cut: ${fullLength - max} more characters]`, cut: true };
}

/** Numbers lines starting at `startLine`: `12\tconst x = 1;`. */
export function formatNumberedLines(startLine: number, lines: readonly string[]): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) out += '\n';
    out += `${startLine + i}\t${lines[i]}`;
  }
  return out;
}

/** "lines 10-59 of 200" */
export function describeWindow(startLine: number, shown: number, total: number): string {
  if (shown === 0) return `0 of ${total} lines`;
  const last = startLine + shown - 1;
  return shown === 1 ? `line ${startLine} of ${total}` : `lines ${startLine}-${last} of ${total}`;
}
