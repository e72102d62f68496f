/** Edit, Write, NotebookEdit: the change as a colored diff with line numbers. */
import { Box } from 'ink';
import React from 'react';
import { DiffView } from '../DiffView.js';
import { useView } from '../view-context.js';
import { ResultLine, resultText, showPath, str, type ToolRenderer } from './common.js';

function EditResult({ tool }: Parameters<NonNullable<ToolRenderer['Result']>>[0]): React.ReactElement {
  const { rows, theme } = useView();
  const diff = tool.display?.diff;
  const said = tool.display?.summary ?? resultText(tool.result).split('\n')[0] ?? '';
  const errors = typeof tool.display?.diagnostics === 'number' ? tool.display.diagnostics : 0;
  // The language server's new errors after this change (core/lsp-calls.ts), as the model got them.
  const summary = errors ? `${said} · ${errors} new error${errors === 1 ? '' : 's'} from the language server` : said;
  return (
    <Box flexDirection="column">
      <ResultLine dim>{summary}</ResultLine>
      {diff ? (
        <Box paddingLeft={5}>
          <DiffView diff={diff} maxRows={Math.max(10, rows * 2)} theme={theme} />
        </Box>
      ) : null}
    </Box>
  );
}

export const editView: ToolRenderer = {
  title: (input, cwd) => showPath(input.file_path ?? input.notebook_path, cwd) + (input.replace_all ? ' · all' : ''),
  Result: EditResult,
};

export const notebookEditView: ToolRenderer = {
  title: (input, cwd) =>
    `${showPath(input.notebook_path, cwd)}${input.cell_id ? ` · cell ${str(input.cell_id)}` : ''}${input.edit_mode ? ` · ${str(input.edit_mode)}` : ''}`,
  Result: EditResult,
};
