/** A few numbered lines around a change, for the model's confirmation after an edit. */
export interface Snippet {
  startLine: number;
  lines: string[];
}

/**
 * Lines `firstLine - context` to `firstLine + lineCount - 1 + context` of an LF text, at most
 * `maxLines` of them. Scans only up to the lines it needs.
 */
export function snippetAround(text: string, firstLine: number, lineCount: number, context = 4, maxLines = 24): Snippet {
  const startLine = Math.max(1, firstLine - context);
  const endLine = Math.min(firstLine + lineCount - 1 + context, startLine + maxLines - 1);
  const lines: string[] = [];
  let line = 1;
  let pos = 0;
  while (line <= endLine && pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    if (line >= startLine) lines.push(text.slice(pos, end));
    if (nl === -1) break;
    pos = nl + 1;
    line++;
  }
  if (lines.length > 0 && lines[lines.length - 1] === '' && pos >= text.length) lines.pop();
  return { startLine, lines };
}
