/**
 * PDFs as text per page, through pdf-parse (loaded lazily: it pulls in pdf.js, which startup and
 * print mode should not pay for unless a PDF is read).
 */
import { readFile } from '../../base/fs/lazy-fs.js';
import { ToolError, errorMessage } from '../../base/errors.js';
import { openRegularFile } from '../fs/file-kind.js';
import { versionOf } from '../../base/fs/version.js';
import type { FileVersion } from '../../base/read-state.js';
import { MAX_OUTPUT_CHARS, MAX_PDF_PAGES_PER_CALL, MAX_PDF_PAGES_WITHOUT_RANGE } from './limits.js';
import { importModule } from '../../base/lib/import-module.js';

export interface PageRange {
  first: number;
  /** Undefined: to the last page. */
  last?: number;
}

/** Parses `"3"`, `"3-7"` or `"3-"`; the message says what is wrong. */
export function parsePageRange(spec: string): PageRange | { error: string } {
  const m = /^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$/.exec(spec);
  if (!m) return { error: `pages must look like "3" or "3-7", not "${spec}".` };
  const first = Number(m[1]);
  const last = m[2] ? (m[3] ? Number(m[3]) : undefined) : first;
  if (first < 1) return { error: 'pages start at 1.' };
  if (last !== undefined && last < first) return { error: `pages "${spec}" ends before it starts.` };
  if (last !== undefined && last - first + 1 > MAX_PDF_PAGES_PER_CALL) {
    return { error: `pages "${spec}" asks for ${last - first + 1} pages; at most ${MAX_PDF_PAGES_PER_CALL} pages can be read at once.` };
  }
  return last === undefined ? { first } : { first, last };
}

export interface LoadedPdf {
  version: FileVersion;
  totalPages: number;
  pages: Array<{ num: number; text: string }>;
  cut: boolean;
}

export async function loadPdf(absPath: string, range: PageRange | undefined): Promise<LoadedPdf> {
  const { fh, stats } = await openRegularFile(absPath);
  let raw: Buffer;
  try {
    raw = await readFile(fh);
  } finally {
    await fh.close();
  }
  const version = versionOf(raw, stats);
  const { PDFParse } = await importModule<typeof import('pdf-parse')>('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(raw), verbosity: 0 });
  try {
    const totalPages = (await parser.getInfo()).total;
    const pageNums = choosePages(absPath, totalPages, range);
    const result = await parser.getText({ partial: pageNums });
    const { pages, cut } = capPages(result.pages.map((p) => ({ num: p.num, text: p.text.trim() })));
    return { version, totalPages, pages, cut };
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError('execution_failed', `Could not read the PDF ${absPath}: ${errorMessage(err)}`);
  } finally {
    await parser.destroy().catch(() => {});
  }
}

function choosePages(absPath: string, total: number, range: PageRange | undefined): number[] {
  if (!range) {
    if (total > MAX_PDF_PAGES_WITHOUT_RANGE) {
      throw new ToolError(
        'execution_failed',
        `${absPath} has ${total} pages, too many to read at once. Pass pages (e.g. "1-${MAX_PDF_PAGES_PER_CALL}") to read at most ${MAX_PDF_PAGES_PER_CALL} pages per call.`,
      );
    }
    return Array.from({ length: total }, (_, i) => i + 1);
  }
  if (range.first > total) throw new ToolError('execution_failed', `${absPath} has only ${total} pages; pages starts at ${range.first}.`);
  const last = Math.min(range.last ?? range.first + MAX_PDF_PAGES_PER_CALL - 1, total);
  return Array.from({ length: last - range.first + 1 }, (_, i) => range.first + i);
}

function capPages(pages: Array<{ num: number; text: string }>): { pages: typeof pages; cut: boolean } {
  let used = 0;
  const out: typeof pages = [];
  for (const p of pages) {
    if (used + p.text.length > MAX_OUTPUT_CHARS) {
      out.push({ num: p.num, text: p.text.slice(0, Math.max(0, MAX_OUTPUT_CHARS - used)) });
      return { pages: out, cut: true };
    }
    used += p.text.length;
    out.push(p);
  }
  return { pages: out, cut: false };
}
