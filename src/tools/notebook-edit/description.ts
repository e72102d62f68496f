export function notebookEditDescription(): string {
  return `Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb).

- notebook_path is the notebook's absolute path. Read the notebook first: NotebookEdit refuses notebooks you have not read, or that changed since.
- cell_id is a cell's id as Read shows it (notebooks without ids use "cell-N", counted from 0).
- edit_mode "replace" (the default) sets the cell's source to new_source (and its type, with cell_type); a code cell's outputs are cleared.
- edit_mode "insert" adds a new cell after cell_id, or at the start when cell_id is left out; cell_type is required.
- edit_mode "delete" removes the cell cell_id (new_source is ignored).
- Everything else in the notebook (other cells, outputs, metadata, indentation) stays as it is.`;
}
