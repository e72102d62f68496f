/** WebFetch: the URL, and what came back. */
import { oneLine, ResultLine, resultText, str, type ToolRenderer } from './common.js';

export const webFetchView: ToolRenderer = {
  title: (input) => oneLine(str(input.url), 100),
  Result({ tool }) {
    const summary = tool.display?.summary ?? oneLine(resultText(tool.result), 100);
    return <ResultLine dim>{summary}</ResultLine>;
  },
};
