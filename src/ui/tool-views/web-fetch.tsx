/** WebFetch: the URL, and what came back. WebSearch: the query, and the results it found. */
import { LinesBlock, oneLine, ResultLine, resultText, str, type ToolRenderer } from './common.js';

export const webFetchView: ToolRenderer = {
  title: (input) => oneLine(str(input.url), 100),
  Result({ tool }) {
    const summary = tool.display?.summary ?? oneLine(resultText(tool.result), 100);
    return <ResultLine dim>{summary}</ResultLine>;
  },
};

export const webSearchView: ToolRenderer = {
  title: (input) => oneLine(str(input.query), 100),
  Result({ tool }) {
    const summary = tool.display?.summary ?? oneLine(resultText(tool.result), 100);
    const results = tool.display?.preview;
    return (
      <>
        <ResultLine dim>{summary}</ResultLine>
        {results ? <LinesBlock text={results} max={10} /> : null}
      </>
    );
  },
};
