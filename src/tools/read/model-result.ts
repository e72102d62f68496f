/** Read's output as the model receives it: numbered lines and notes that say how to read on. */
import type { ModelResult } from '../../base/events.js';
import { describeWindow, formatNumberedLines } from './format-lines.js';
import { MAX_LINE_CHARS, MAX_PDF_PAGES_PER_CALL } from './limits.js';
import type { ReadOutput, TextRead } from './types.js';

export function readModelResult(out: ReadOutput): ModelResult {
  switch (out.kind) {
    case 'text':
      return { content: textResult(out) };
    case 'empty':
      return {
        content: out.whitespaceOnly
          ? `The file ${out.filePath} exists but contains only whitespace (${out.totalLines} lines).`
          : `The file ${out.filePath} exists but is empty.`,
      };
    case 'past-end':
      return {
        content: `The file ${out.filePath} has ${out.totalLines} lines; offset ${out.range.offset} is past the end. Use an offset between 1 and ${out.totalLines}.`,
      };
    case 'unchanged':
      return {
        content: `The file ${out.filePath} is unchanged since your last read of this range (offset ${out.range.offset}${out.range.limit === undefined ? '' : `, limit ${out.range.limit}`}); the content you saw then is still current.`,
      };
    case 'image':
      return {
        content: [
          { type: 'text', text: `Image ${out.filePath} (${out.mediaType}, ${out.bytes} bytes):` },
          { type: 'image', source: { type: 'base64', media_type: out.mediaType, data: out.base64 } },
        ],
      };
    case 'pdf':
      return { content: pdfResult(out) };
    case 'notebook': {
      const head = `Notebook ${out.filePath} (${out.cellCount} cells):\n`;
      if (out.images.length === 0) return { content: head + out.text };
      return {
        content: [
          { type: 'text', text: head + out.text },
          ...out.images.map((img) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: img.mediaType, data: img.base64 } })),
        ],
      };
    }
  }
}

function textResult(out: TextRead): string {
  const window = describeWindow(out.startLine, out.lines.length, out.totalLines);
  const parts = [`File: ${out.filePath} (${window})`, formatNumberedLines(out.startLine, out.lines)];
  const next = out.startLine + out.lines.length;
  const notes: string[] = [];
  if (next <= out.totalLines) {
    const why = out.stoppedAtOutputCap ? 'The output limit was reached' : 'The file has more lines';
    notes.push(`${why}: ${out.totalLines - next + 1} lines not shown. Use offset=${next} to read on (and limit to choose how many).`);
  }
  if (out.cutLines > 0) notes.push(`${out.cutLines} line(s) longer than ${MAX_LINE_CHARS} characters were cut.`);
  if (notes.length > 0) parts.push(`(${notes.join(' ')})`);
  return parts.join('\n');
}

function pdfResult(out: Extract<ReadOutput, { kind: 'pdf' }>): string {
  const first = out.pages[0]?.num ?? 0;
  const last = out.pages[out.pages.length - 1]?.num ?? 0;
  const parts = [`PDF ${out.filePath} (pages ${first}-${last} of ${out.totalPages}):`];
  for (const p of out.pages) parts.push(`--- Page ${p.num} ---\n${p.text || '(no text on this page)'}`);
  if (out.cut) parts.push('(The output limit was reached; read fewer pages at a time to see the rest.)');
  else if (last < out.totalPages) parts.push(`(Use pages="${last + 1}-${Math.min(out.totalPages, last + MAX_PDF_PAGES_PER_CALL)}" to read on.)`);
  return parts.join('\n\n');
}
