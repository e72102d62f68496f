/**
 * Jupyter notebooks (nbformat 4) as Read shows them and NotebookEdit changes them. Parsing keeps
 * every field it does not know, and serializing keeps the file's indentation and final newline, so
 * an edit changes only the cell it targets.
 */
export type CellType = 'code' | 'markdown' | 'raw';

export interface NotebookOutput {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  [key: string]: unknown;
}

export interface NotebookCell {
  cell_type: CellType;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [key: string]: unknown;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: {
    language_info?: { name?: string; [key: string]: unknown };
    kernelspec?: { language?: string; [key: string]: unknown };
    [key: string]: unknown;
  };
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

/** Parses notebook JSON; the error says what is wrong for the model. */
export function parseNotebook(text: string): Notebook | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `not valid JSON (${(err as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || !Array.isArray((value as Notebook).cells)) {
    return { error: 'not a Jupyter notebook (no "cells" array)' };
  }
  return value as Notebook;
}

export function notebookLanguage(nb: Notebook): string {
  return nb.metadata?.language_info?.name ?? nb.metadata?.kernelspec?.language ?? 'python';
}

/** A multi-line string field (source, stream text) as one string. */
export function joinText(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join('') : value;
}

/** Source as nbformat writes it: one string per line, each but the last ending in "\n". */
export function toSourceLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  return lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l)).filter((l) => l !== '');
}

/** The id the model uses for a cell: its own id, or `cell-N` (0-based) in notebooks without ids. */
export function cellIdAt(nb: Notebook, index: number): string {
  return nb.cells[index]?.id ?? `cell-${index}`;
}

/** Index of the cell with this id (or `cell-N` / a bare index), or -1. */
export function findCellIndex(nb: Notebook, cellId: string): number {
  const byId = nb.cells.findIndex((c) => c.id === cellId);
  if (byId !== -1) return byId;
  const m = /^(?:cell-)?(\d+)$/.exec(cellId);
  if (m) {
    const i = Number(m[1]);
    if (i < nb.cells.length) return i;
  }
  return -1;
}

/** Do cells of this notebook carry ids (nbformat 4.5 and later)? */
export function usesCellIds(nb: Notebook): boolean {
  if (nb.cells.some((c) => typeof c.id === 'string')) return true;
  return (nb.nbformat ?? 4) > 4 || ((nb.nbformat ?? 4) === 4 && (nb.nbformat_minor ?? 0) >= 5);
}

/** The indentation of the JSON text: a tab, or a number of spaces (1 as nbformat writes). */
export function detectIndent(raw: string): string | number {
  const m = /^\{\r?\n([ \t]+)"/.exec(raw);
  if (!m) return raw.trimEnd().includes('\n') ? 1 : 0;
  const ws = m[1]!;
  return ws.includes('\t') ? '\t' : ws.length;
}

/** Serializes like the original: same indentation, same line endings, same final newline. */
export function serializeNotebook(nb: Notebook, originalRaw: string): string {
  const indent = detectIndent(originalRaw);
  let text = indent === 0 ? JSON.stringify(nb) : JSON.stringify(nb, null, indent);
  if (originalRaw.includes('\r\n')) text = text.replace(/\n/g, '\r\n');
  if (/\r?\n$/.test(originalRaw)) text += originalRaw.endsWith('\r\n') ? '\r\n' : '\n';
  return text;
}
