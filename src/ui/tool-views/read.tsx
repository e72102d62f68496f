/** Read: which file and how much of it. */
import { ResultLine, resultText, showPath, str, type ToolRenderer } from './common.js';

export const readView: ToolRenderer = {
  title(input, cwd) {
    const from = typeof input.offset === 'number' ? input.offset : 1;
    const range =
      typeof input.limit === 'number' ? ` · lines ${from}-${from + input.limit - 1}` : typeof input.offset === 'number' ? ` · from line ${from}` : '';
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
