/** Any other tool (MCP tools, future ones): its arguments, and the first lines of its result. */
import { Box } from 'ink';
import { LinesBlock, oneLine, ResultLine, resultText, type ToolRenderer } from './common.js';

export const genericView: ToolRenderer = {
  title: (input) => {
    const entries = Object.entries(input).filter(([, v]) => v !== undefined);
    return oneLine(entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', '), 100);
  },
  Result({ tool }) {
    const summary = tool.display?.summary;
    const body = (tool.display?.preview ?? resultText(tool.result)).trim();
    const lines = body === summary ? [] : body.split('\n');
    const first = summary ?? lines.shift() ?? '';
    return (
      <Box flexDirection="column">
        <ResultLine dim>{first || '(no output)'}</ResultLine>
        {lines.length && lines.join('').trim() ? <LinesBlock text={lines.join('\n')} max={summary ? 4 : 3} /> : null}
      </Box>
    );
  },
};
