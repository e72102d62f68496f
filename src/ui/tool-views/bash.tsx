/** Bash: the command, and the tail of its output. */
import { Box } from 'ink';
import { oneLine, OutputTail, ResultLine, resultText, str, type ToolRenderer } from './common.js';

export const bashView: ToolRenderer = {
  title: (input) => oneLine(str(input.command), 100) + (input.run_in_background ? ' &' : ''),
  Result({ tool }) {
    const out = (tool.display?.preview ?? resultText(tool.result)).replace(/\n+$/, '');
    // "exit 0" is the normal case: say only what is not.
    const summary = tool.display?.summary === 'exit 0' ? undefined : tool.display?.summary;
    if (!out.trim()) return <ResultLine dim>{summary ?? '(no output)'}</ResultLine>;
    return (
      <Box flexDirection="column">
        <OutputTail text={out} max={8} />
        {summary ? <ResultLine dim>{summary}</ResultLine> : null}
      </Box>
    );
  },
};
