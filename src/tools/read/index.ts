/**
 * Read: text as numbered lines, images as image blocks, PDFs as text per page, notebooks as cells.
 * Read-only and safe beside other calls; what it saw becomes the read state Edit and Write count on.
 */
import type { z } from 'zod';
import { ToolError } from '../../base/errors.js';
import { formatBytes } from '../fs/file-kind.js';
import { readDeniedCheck } from '../../permissions/path-rules.js';
import { displayPath, readVerdict } from '../fs/permissions.js';
import { resolveToolPath } from '../../base/paths.js';
import { defineTool, type ToolContext, lazySchema } from '../../base/tool.js';
import type { DisplayData } from '../../base/events.js';
import { readDescription } from './description.js';
import { describeWindow } from './format-lines.js';
import { loadImage } from './image.js';
import { inspectForRead } from './inspect.js';
import { readModelResult } from './model-result.js';
import { loadNotebook } from './notebook.js';
import { loadPdf, parsePageRange } from './pdf.js';
import { readTextFile } from './read-text.js';
import type { ReadOutput } from './types.js';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    file_path: z.string().min(1).describe('The absolute path of the file to read'),
    offset: z.number().int().min(0).optional().describe('The line number to start reading from (1-based). Only needed for files too long to read at once'),
    limit: z.number().int().positive().optional().describe('The number of lines to read. Only needed for files too long to read at once'),
    pages: z.string().optional().describe('Page range for PDF files, e.g. "1-5" or "3". At most 20 pages per call; required for PDFs over 10 pages'),
  }),
);

export type ReadInput = z.infer<typeof inputSchema>;

function inspect(input: ReadInput, ctx: Pick<ToolContext, 'cwd' | 'homeDir' | 'projectRoot' | 'rules'>) {
  return inspectForRead({
    absPath: resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir),
    cwd: ctx.cwd,
    hidden: readDeniedCheck(ctx),
    hasRange: input.offset !== undefined || input.limit !== undefined,
    hasPages: input.pages !== undefined,
  });
}

export const readTool = defineTool<ReadInput, ReadOutput>({
  name: 'Read',
  description: readDescription,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,

  async validateInput(input, ctx) {
    if (input.pages !== undefined) {
      const pages = parsePageRange(input.pages);
      if ('error' in pages) return { ok: false, message: pages.error };
    }
    const found = await inspect(input, ctx);
    return found.ok ? { ok: true } : { ok: false, message: found.message };
  },

  permissionPaths: (input, ctx) => ({ access: 'read', paths: [resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir)] }),

  async checkPermissions(input, ctx) {
    return readVerdict(resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir), ctx);
  },

  async *call(input, ctx) {
    const found = await inspect(input, ctx);
    if (!found.ok) throw new ToolError('execution_failed', found.message);
    const base = { filePath: found.absPath, displayPath: displayPath(found.absPath, ctx.cwd) };
    switch (found.kind) {
      case 'text':
        return await readTextFile({
          ...base,
          absPath: found.absPath,
          encoding: found.encoding,
          offset: input.offset,
          limit: input.limit,
          readState: ctx.readState,
          signal: ctx.signal,
        });
      case 'image': {
        const img = await loadImage(found.absPath, found.mediaType);
        return { ...base, kind: 'image', range: { offset: 1 }, version: img.version, mediaType: img.mediaType, bytes: img.bytes, base64: img.base64 };
      }
      case 'pdf': {
        const range = input.pages === undefined ? undefined : parsePageRange(input.pages);
        if (range && 'error' in range) throw new ToolError('invalid_input', range.error);
        const pdf = await loadPdf(found.absPath, range);
        const first = pdf.pages[0]?.num ?? 1;
        return { ...base, kind: 'pdf', range: { offset: first, limit: pdf.pages.length }, ...pdf };
      }
      case 'notebook': {
        const nb = await loadNotebook(found.absPath);
        return { ...base, kind: 'notebook', range: { offset: 1 }, ...nb };
      }
    }
  },

  toModelResult: (output) => readModelResult(output),

  summary(input) {
    if (input.pages) return `Read ${input.file_path} (pages ${input.pages})`;
    if (input.offset !== undefined || input.limit !== undefined) {
      const start = Math.max(1, input.offset ?? 1);
      return `Read ${input.file_path} (from line ${start}${input.limit ? `, ${input.limit} lines` : ''})`;
    }
    return `Read ${input.file_path}`;
  },

  display: (output) => ({ summary: displaySummary(output) }) satisfies DisplayData,

  contextChange: (output) => (state) => state.readState.recordRead(output.filePath, output.version, output.range),
});

function displaySummary(out: ReadOutput): string {
  switch (out.kind) {
    case 'text':
      return `Read ${out.displayPath} (${describeWindow(out.startLine, out.lines.length, out.totalLines)})`;
    case 'empty':
      return `Read ${out.displayPath} (${out.whitespaceOnly ? 'whitespace only' : 'empty'})`;
    case 'past-end':
      return `Read ${out.displayPath}: offset past the end (${out.totalLines} lines)`;
    case 'unchanged':
      return `Read ${out.displayPath}: unchanged since last read`;
    case 'image':
      return `Read image ${out.displayPath} (${formatBytes(out.bytes)})`;
    case 'pdf':
      return `Read PDF ${out.displayPath} (${out.pages.length} of ${out.totalPages} pages)`;
    case 'notebook':
      return `Read notebook ${out.displayPath} (${out.cellCount} cells)`;
  }
}
