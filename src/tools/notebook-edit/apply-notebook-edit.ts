/**
 * The pure part of NotebookEdit: replace, insert or delete one cell, leaving every other cell and
 * the notebook's metadata exactly as they were.
 */
import { cellIdAt, findCellIndex, joinText, toSourceLines, usesCellIds, type Notebook, type NotebookCell } from '../fs/notebook-format.js';

export type EditMode = 'replace' | 'insert' | 'delete';

export interface NotebookEditRequest {
  cellId?: string | undefined;
  newSource: string;
  cellType?: 'code' | 'markdown' | undefined;
  editMode: EditMode;
}

export type NotebookEditResult =
  | {
      ok: true;
      notebook: Notebook;
      /** The id of the cell that was changed, inserted or deleted. */
      cellId: string;
      cellType: string;
      /** For inserts: the cell the new one follows (undefined: at the start). */
      afterCellId?: string;
      oldSource: string;
      newSource: string;
    }
  | { ok: false; message: string };

export function applyNotebookEdit(original: Notebook, req: NotebookEditRequest, newId: () => string): NotebookEditResult {
  const nb = structuredClone(original);
  if (req.editMode === 'insert') return insertCell(nb, req, newId);
  if (req.cellId === undefined) return { ok: false, message: `cell_id is required to ${req.editMode} a cell.` };
  const index = findCellIndex(nb, req.cellId);
  if (index === -1) return { ok: false, message: notFound(nb, req.cellId) };
  const cell = nb.cells[index]!;
  const cellId = cellIdAt(nb, index);
  const oldSource = joinText(cell.source);
  if (req.editMode === 'delete') {
    nb.cells.splice(index, 1);
    return { ok: true, notebook: nb, cellId, cellType: cell.cell_type, oldSource, newSource: '' };
  }
  cell.source = toSourceLines(req.newSource);
  if (req.cellType && req.cellType !== cell.cell_type) cell.cell_type = req.cellType;
  if (cell.cell_type === 'code') {
    // The old outputs belong to the old source.
    cell.execution_count = null;
    cell.outputs = [];
  } else {
    delete cell.outputs;
    delete cell.execution_count;
  }
  return { ok: true, notebook: nb, cellId, cellType: cell.cell_type, oldSource, newSource: req.newSource };
}

function insertCell(nb: Notebook, req: NotebookEditRequest, newId: () => string): NotebookEditResult {
  if (!req.cellType) return { ok: false, message: 'cell_type is required when inserting a cell ("code" or "markdown").' };
  let at = 0;
  let afterCellId: string | undefined;
  if (req.cellId !== undefined) {
    const index = findCellIndex(nb, req.cellId);
    if (index === -1) return { ok: false, message: notFound(nb, req.cellId) };
    at = index + 1;
    afterCellId = cellIdAt(nb, index);
  }
  const id = usesCellIds(nb) ? uniqueId(nb, newId) : undefined;
  // Keys in nbformat's (sorted) order, so the new cell looks like the ones Jupyter writes.
  const cell: NotebookCell =
    req.cellType === 'code'
      ? { cell_type: 'code', execution_count: null, ...(id ? { id } : {}), metadata: {}, outputs: [], source: toSourceLines(req.newSource) }
      : { cell_type: 'markdown', ...(id ? { id } : {}), metadata: {}, source: toSourceLines(req.newSource) };
  nb.cells.splice(at, 0, cell);
  return {
    ok: true,
    notebook: nb,
    cellId: id ?? `cell-${at}`,
    cellType: req.cellType,
    ...(afterCellId === undefined ? {} : { afterCellId }),
    oldSource: '',
    newSource: req.newSource,
  };
}

function uniqueId(nb: Notebook, newId: () => string): string {
  const taken = new Set(nb.cells.map((c) => c.id));
  let id = newId();
  while (taken.has(id)) id = newId();
  return id;
}

function notFound(nb: Notebook, cellId: string): string {
  const ids = nb.cells.map((_, i) => cellIdAt(nb, i));
  const shown = ids.slice(0, 30).join(', ') + (ids.length > 30 ? ', …' : '');
  return `Cell "${cellId}" not found in the notebook. Its cells are: ${shown || '(none)'}.`;
}
