/**
 * NotebookEdit: change one cell of a Jupyter notebook. Same read-before-write rule and atomic
 * write as Edit; the notebook stays valid nbformat JSON with its other cells untouched.
 */
import type { z } from 'zod';
import { ToolError } from '../../base/errors.js';
import { writeAtomic } from '../../base/fs/atomic-write.js';
import { countChanges, diffHunks, formatUnifiedDiff, type DiffHunk } from '../fs/diff.js';
import { writeVerdict } from '../fs/permissions.js';
import type { FileVersion } from '../../base/read-state.js';
import { resolveToolPath } from '../../base/paths.js';
import { defineTool, lazySchema } from '../../base/tool.js';
import type { EditMode } from './apply-notebook-edit.js';
import { notebookEditDescription } from './description.js';
import { planNotebookEdit } from './plan.js';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    notebook_path: z.string().min(1).describe('The absolute path of the Jupyter notebook (.ipynb) to edit'),
    cell_id: z.string().optional().describe('The id of the cell to edit. When inserting, the new cell goes after this cell, or at the start if left out'),
    new_source: z.string().describe('The new source of the cell'),
    cell_type: z.enum(['code', 'markdown']).optional().describe('The type of the cell. Required when inserting; changes the type when replacing'),
    edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('replace (default), insert or delete'),
  }),
);

export type NotebookEditInput = z.infer<typeof inputSchema>;

export interface NotebookEditOutput {
  notebookPath: string;
  displayPath: string;
  editMode: EditMode;
  cellId: string;
  cellType: string;
  afterCellId?: string;
  /** Diff of the cell's source. */
  hunks: DiffHunk[];
  version: FileVersion;
}

function request(input: NotebookEditInput) {
  return { cellId: input.cell_id, newSource: input.new_source, cellType: input.cell_type, editMode: input.edit_mode ?? 'replace' } as const;
}

export const notebookEditTool = defineTool<NotebookEditInput, NotebookEditOutput>({
  name: 'NotebookEdit',
  description: notebookEditDescription,
  inputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  isDestructive: (input) => input.edit_mode === 'delete',

  async validateInput(input, ctx) {
    const planned = await planNotebookEdit(input.notebook_path, request(input), ctx);
    return planned.ok ? { ok: true } : planned;
  },

  permissionPaths: (input, ctx) => ({ access: 'write', paths: [resolveToolPath(input.notebook_path, ctx.cwd, ctx.homeDir)] }),

  async checkPermissions(input, ctx) {
    return writeVerdict('Edit notebook', resolveToolPath(input.notebook_path, ctx.cwd, ctx.homeDir), ctx);
  },

  async *call(input, ctx) {
    const planned = await planNotebookEdit(input.notebook_path, request(input), ctx);
    if (!planned.ok) throw new ToolError('execution_failed', planned.message);
    if (ctx.signal.aborted) throw new ToolError('aborted', 'NotebookEdit was cancelled before writing.');
    const { plan } = planned;
    const version = await writeAtomic(plan.absPath, plan.bytes, { history: ctx.fileHistory });
    return {
      notebookPath: plan.absPath,
      displayPath: plan.displayPath,
      editMode: request(input).editMode,
      cellId: plan.cellId,
      cellType: plan.cellType,
      ...(plan.afterCellId === undefined ? {} : { afterCellId: plan.afterCellId }),
      hunks: diffHunks(withNewline(plan.oldSource), withNewline(plan.newSource)),
      version,
    };
  },

  toModelResult(out) {
    switch (out.editMode) {
      case 'replace':
        return { content: `Updated cell ${out.cellId} (${out.cellType}) in ${out.notebookPath}.` };
      case 'insert': {
        const where = out.afterCellId === undefined ? 'at the start' : `after cell ${out.afterCellId}`;
        return { content: `Inserted a new ${out.cellType} cell ${out.cellId} ${where} in ${out.notebookPath}.` };
      }
      case 'delete':
        return { content: `Deleted cell ${out.cellId} from ${out.notebookPath}.` };
    }
  },

  summary: (input) => `NotebookEdit ${input.notebook_path} (${input.edit_mode ?? 'replace'}${input.cell_id ? ` ${input.cell_id}` : ''})`,

  display(out) {
    const { added, removed } = countChanges(out.hunks);
    const verb = { replace: 'Updated', insert: 'Inserted', delete: 'Deleted' }[out.editMode];
    return {
      summary: `${verb} cell ${out.cellId} in ${out.displayPath} (+${added} -${removed})`,
      diff: formatUnifiedDiff(`${out.displayPath} [cell ${out.cellId}]`, out.hunks, out.editMode === 'insert'),
      hunks: out.hunks,
    };
  },

  contextChange: (out) => (state) => state.readState.recordWrite(out.notebookPath, out.version),
});

function withNewline(s: string): string {
  return s === '' || s.endsWith('\n') ? s : `${s}\n`;
}
