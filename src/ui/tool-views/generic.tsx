/** Any other tool (MCP tools, future ones): its one-line summary and the first lines of its result. */
import { Box } from 'ink';
import React from 'react';
import { LinesBlock, oneLine, ResultLine, resultText, type ToolRenderer } from './common.js';

export const genericView: ToolRenderer = {
  title: (input) => {
    const entries = Object.entries(input).filter(([, v]) => v !== undefined);
    return oneLine(entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', '), 100);
  },
  Result({ tool }) {
    const summary = tool.display?.summary;
    const text = tool.display?.preview ?? resultText(tool.result);
    return (
      <Box flexDirection="column">
        {summary ? <ResultLine dim>{summary}</ResultLine> : null}
        {text.trim() ? (summary ? <LinesBlock text={text} max={4} /> : <FirstLines text={text} />) : summary ? null : <ResultLine dim>(no output)</ResultLine>}
      </Box>
    );
  },
};

function FirstLines({ text }: { text: string }): React.ReactElement {
  const lines = text.trim().split('\n');
  return (
    <Box flexDirection="column">
      <ResultLine dim>{lines[0]}</ResultLine>
      {lines.length > 1 ? <LinesBlock text={lines.slice(1).join('\n')} max={3} /> : null}
    </Box>
  );
}
