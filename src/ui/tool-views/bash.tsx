/** Bash: the command, and the tail of its output. */
import { Box } from 'ink';
import React from 'react';
import { LinesBlock, oneLine, ResultLine, resultText, str, type ToolRenderer } from './common.js';

export const bashView: ToolRenderer = {
  title: (input) => oneLine(str(input.command), 100) + (input.run_in_background ? ' &' : ''),
  Result({ tool }) {
    const out = (tool.display?.preview ?? resultText(tool.result)).replace(/\n+$/, '');
    const summary = tool.display?.summary;
    if (!out.trim()) return <ResultLine dim>{summary ?? '(no output)'}</ResultLine>;
    return (
      <Box flexDirection="column">
        {summary ? <ResultLine dim>{summary}</ResultLine> : null}
        {summary ? <LinesBlock text={out} max={8} fromEnd /> : <FirstAndRest text={out} />}
      </Box>
    );
  },
};

function FirstAndRest({ text }: { text: string }): React.ReactElement {
  const lines = text.split('\n');
  return (
    <Box flexDirection="column">
      <ResultLine dim>{lines[0]}</ResultLine>
      {lines.length > 1 ? <LinesBlock text={lines.slice(1).join('\n')} max={7} fromEnd /> : null}
    </Box>
  );
}
