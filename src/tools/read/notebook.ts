/** Notebooks as the model reads them: every cell with its id, type, source and outputs. */
import { readFile } from '../../base/fs/lazy-fs.js';
import { ToolError } from '../../base/errors.js';
import { decodeText, detectEncoding } from '../fs/encoding.js';
import { openRegularFile } from '../fs/file-kind.js';
import { cellIdAt, joinText, notebookLanguage, parseNotebook, type Notebook, type NotebookCell, type NotebookOutput } from '../fs/notebook-format.js';
import { versionOf } from '../../base/fs/version.js';
import type { FileVersion } from '../../base/read-state.js';
import { MAX_IMAGE_BYTES, MAX_NOTEBOOK_OUTPUT_CHARS, MAX_OUTPUT_CHARS } from './limits.js';
import type { NotebookImage } from './types.js';

const MAX_IMAGES = 8;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface RenderedNotebook {
  text: string;
  images: NotebookImage[];
  cellCount: number;
  cut: boolean;
}

export async function loadNotebook(absPath: string): Promise<RenderedNotebook & { version: FileVersion }> {
  const { fh, stats } = await openRegularFile(absPath);
  let raw: Buffer;
  try {
    raw = await readFile(fh);
  } finally {
    await fh.close();
  }
  const nb = parseNotebook(decodeText(raw, detectEncoding(raw.subarray(0, 4096))));
  if ('error' in nb) throw new ToolError('execution_failed', `Cannot read the notebook ${absPath}: ${nb.error}.`);
  return { ...renderNotebook(nb), version: versionOf(raw, stats) };
}

/** Pure: the notebook as text (cells and outputs) plus the images found in outputs. */
export function renderNotebook(nb: Notebook): RenderedNotebook {
  const language = notebookLanguage(nb);
  const images: NotebookImage[] = [];
  const parts: string[] = [];
  let used = 0;
  let cut = false;
  for (let i = 0; i < nb.cells.length; i++) {
    const cell = nb.cells[i]!;
    const block = renderCell(cellIdAt(nb, i), cell, language, images);
    if (used + block.length > MAX_OUTPUT_CHARS && parts.length > 0) {
      parts.push(`(Output limit reached: cells ${i} to ${nb.cells.length - 1} are not shown. Read them with Bash and jq, e.g. \`jq '.cells[${i}]'\`.)`);
      cut = true;
      break;
    }
    parts.push(block);
    used += block.length;
  }
  return { text: parts.join('\n'), images, cellCount: nb.cells.length, cut };
}

function renderCell(id: string, cell: NotebookCell, language: string, images: NotebookImage[]): string {
  const attrs = [`id="${id}"`, `cell_type="${cell.cell_type}"`];
  if (cell.cell_type === 'code') {
    attrs.push(`language="${language}"`);
    if (typeof cell.execution_count === 'number') attrs.push(`execution_count="${cell.execution_count}"`);
  }
  let out = `<cell ${attrs.join(' ')}>\n${joinText(cell.source)}\n</cell>`;
  for (const output of cell.outputs ?? []) {
    const rendered = renderOutput(output, images);
    if (rendered !== undefined) out += `\n<output cell_id="${id}" type="${output.output_type}">\n${rendered}\n</output>`;
  }
  return out;
}

function renderOutput(output: NotebookOutput, images: NotebookImage[]): string | undefined {
  switch (output.output_type) {
    case 'stream':
      return capText(joinText(output.text));
    case 'error':
      return capText([`${output.ename ?? 'Error'}: ${output.evalue ?? ''}`, ...(output.traceback ?? []).map(stripAnsi)].join('\n'));
    case 'execute_result':
    case 'display_data':
      return renderData(output.data ?? {}, images);
    default:
      return undefined;
  }
}

function renderData(data: Record<string, unknown>, images: NotebookImage[]): string {
  const parts: string[] = [];
  const imageType = IMAGE_TYPES.find((t) => typeof data[t] === 'string');
  if (imageType) {
    const base64 = (data[imageType] as string).replace(/\s+/g, '');
    if (images.length < MAX_IMAGES && (base64.length * 3) / 4 <= MAX_IMAGE_BYTES) {
      images.push({ mediaType: imageType, base64 });
      parts.push(`[${imageType} image ${images.length} attached below]`);
    } else {
      parts.push(`[${imageType} image not shown: too large, or too many images]`);
    }
  }
  const text = data['text/plain'];
  if (text !== undefined && (typeof text === 'string' || Array.isArray(text))) parts.push(capText(joinText(text as string | string[])));
  else if (!imageType && Object.keys(data).length > 0) parts.push(`[output of type ${Object.keys(data).join(', ')}]`);
  return parts.join('\n');
}

function capText(text: string): string {
  const t = text.replace(/\n$/, '');
  if (t.length <= MAX_NOTEBOOK_OUTPUT_CHARS) return t;
  return `${t.slice(0, MAX_NOTEBOOK_OUTPUT_CHARS)}… [output cut: ${t.length - MAX_NOTEBOOK_OUTPUT_CHARS} more characters]`;
}

function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
}
