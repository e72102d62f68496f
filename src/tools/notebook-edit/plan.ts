/** What NotebookEdit will write, decided against the notebook on disk now (validateInput and call). */
import { randomHex } from '../../base/ids.js';
import { encodeText } from '../fs/encoding.js';
import { isNotebookPath } from '../fs/file-kind.js';
import { parseNotebook, serializeNotebook } from '../fs/notebook-format.js';
import { displayPath } from '../fs/permissions.js';
import { loadWriteTarget } from '../fs/write-target.js';
import { resolveToolPath } from '../../base/paths.js';
import type { ToolContext } from '../../base/tool.js';
import { applyNotebookEdit, type NotebookEditRequest } from './apply-notebook-edit.js';

export interface NotebookPlan {
  absPath: string;
  displayPath: string;
  bytes: Buffer;
  cellId: string;
  cellType: string;
  afterCellId?: string;
  oldSource: string;
  newSource: string;
}

export async function planNotebookEdit(
  notebookPath: string,
  req: NotebookEditRequest,
  ctx: Pick<ToolContext, 'cwd' | 'homeDir' | 'readState'>,
): Promise<{ ok: true; plan: NotebookPlan } | { ok: false; message: string }> {
  const absPath = resolveToolPath(notebookPath, ctx.cwd, ctx.homeDir);
  if (!isNotebookPath(absPath)) {
    return { ok: false, message: `${absPath} is not a Jupyter notebook (.ipynb). Use Edit for other files.` };
  }
  const target = await loadWriteTarget(absPath, { readState: ctx.readState });
  if (!target.ok) return target;
  if (!target.exists) {
    return { ok: false, message: `Notebook does not exist: ${absPath} (current working directory: ${ctx.cwd}). To create one, use Write.` };
  }
  const nb = parseNotebook(target.file.text);
  if ('error' in nb) return { ok: false, message: `Cannot edit ${absPath}: ${nb.error}.` };
  const result = applyNotebookEdit(nb, req, () => randomHex(4));
  if (!result.ok) return result;
  const text = serializeNotebook(result.notebook, target.file.text);
  return {
    ok: true,
    plan: {
      absPath,
      displayPath: displayPath(absPath, ctx.cwd),
      bytes: encodeText(text, target.file.encoding),
      cellId: result.cellId,
      cellType: result.cellType,
      ...(result.afterCellId === undefined ? {} : { afterCellId: result.afterCellId }),
      oldSource: result.oldSource,
      newSource: result.newSource,
    },
  };
}
