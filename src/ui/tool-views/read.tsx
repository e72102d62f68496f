/** Read: which file and how much of it. */
import React from 'react';
import { ResultLine, resultText, showPath, str, type ToolRenderer } from './common.js';

export const readView: ToolRenderer = {
  title(input, cwd) {
    const range = input.offset !== undefined || input.limit !== undefined ? ` · lines ${str(input.offset ?? 1)}${input.limit !== undefined ? `+${str(input.limit)}` : ''}` : '';
    const pages = input.pages !== undefined ? ` · pages ${str(input.pages)}` : '';
    return `${showPath(input.file_path, cwd)}${range}${pages}`;
  },
  Result({ tool }) {
    const summary = tool.display?.summary;
    if (summary) return <ResultLine dim>{summary}</ResultLine>;
    const lines = resultText(tool.result).split('\n').length;
    return <ResultLine dim>{`Read ${lines} lines`}</ResultLine>;
  },
};
