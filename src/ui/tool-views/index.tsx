/**
 * Tool calls on screen: a header `● Name(what)` and a body chosen by tool name, driven only by event
 * data (input, display, result, gate trace). Unknown tools get the generic view.
 */
import { Box, Text } from 'ink';
import React from 'react';
import { Markdown } from '../Markdown.js';
import { symbols } from '../theme.js';
import type { FinishedTool, LiveTool } from '../types.js';
import { useView } from '../view-context.js';
import { bashView } from './bash.js';
import { FailedResult, LinesBlock, ResultLine, resultText, type ToolRenderer } from './common.js';
import { editView, notebookEditView } from './edit.js';
import { genericView } from './generic.js';
import { readView } from './read.js';
import { globView, grepView } from './search.js';
import { todoView } from './todo.js';
import { webFetchView, webSearchView } from './web-fetch.js';

const planView: ToolRenderer = {
  title: () => '',
  Result({ tool }) {
    const { columns } = useView();
    const plan = tool.display?.preview;
    return plan ? (
      <Box paddingLeft={5}>
        <Markdown text={plan} width={columns - 7} />
      </Box>
    ) : (
      <ResultLine dim>{tool.display?.summary ?? 'Plan approved'}</ResultLine>
    );
  },
};

const agentView: ToolRenderer = {
  title: (input) =>
    `${typeof input.subagent_type === 'string' ? input.subagent_type : 'general-purpose'}: ${typeof input.description === 'string' ? input.description : ''}`,
  Result: genericView.Result,
};

const RENDERERS: Record<string, ToolRenderer> = {
  Read: readView,
  Edit: editView,
  MultiEdit: editView,
  Write: editView,
  NotebookEdit: notebookEditView,
  Bash: bashView,
  Grep: grepView,
  Glob: globView,
  WebFetch: webFetchView,
  WebSearch: webSearchView,
  ExitPlanMode: planView,
  TodoWrite: todoView,
  Agent: agentView,
  Task: agentView,
};

export function rendererFor(name: string): ToolRenderer {
  return RENDERERS[name] ?? genericView;
}

/** `mcp__github__create_issue` → `github · create_issue (MCP)`. */
export function displayName(name: string): string {
  const m = /^mcp__([^_]+(?:_[^_]+)*?)__(.+)$/.exec(name);
  return m ? `${m[1]} · ${m[2]} (MCP)` : name;
}

function asRecord(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
}

export function toolTitle(name: string, input: unknown, cwd: string): string {
  try {
    return rendererFor(name).title(asRecord(input), cwd);
  } catch {
    return '';
  }
}

export function ToolHeader({ name, input, bullet }: { name: string; input: unknown; bullet: React.ReactNode }): React.ReactElement {
  const { cwd, theme, agentColors } = useView();
  const title = toolTitle(name, input, cwd);
  // A sub-agent whose definition has a color shows its type in it.
  const type = name === 'Agent' || name === 'Task' ? title.slice(0, title.indexOf(': ')) : '';
  const color = type ? theme.agentColor(agentColors?.[type]) : undefined;
  return (
    <Box>
      <Box width={2} flexShrink={0}>
        {bullet}
      </Box>
      <Text wrap="truncate-end">
        <Text bold>{displayName(name)}</Text>
        {title && color ? (
          <>
            (
            <Text color={color} bold>
              {type}
            </Text>
            {`${title.slice(type.length)})`}
          </>
        ) : title ? (
          `(${title})`
        ) : (
          ''
        )}
      </Text>
    </Box>
  );
}

/** A call that finished: header with a green or red bullet, then its result. */
export const FinishedToolView = React.memo(function FinishedToolView({ tool }: { tool: FinishedTool }): React.ReactElement {
  const { theme, verbose } = useView();
  const failed = tool.result.isError === true;
  const Result = rendererFor(tool.name).Result ?? genericView.Result!;
  return (
    <Box flexDirection="column">
      <ToolHeader name={tool.name} input={tool.input} bullet={<Text color={theme.color(failed ? 'error' : 'ok')}>{symbols.bullet}</Text>} />
      {verbose ? <FullCall tool={tool} /> : failed ? <FailedResult tool={tool} /> : <Result tool={tool} />}
    </Box>
  );
});

/** The full transcript (Ctrl+O): the call's input and what the model got back, whole. */
function FullCall({ tool }: { tool: FinishedTool }): React.ReactElement {
  const { theme } = useView();
  const input = JSON.stringify(tool.input, null, 2) ?? '';
  return (
    <Box flexDirection="column" paddingLeft={5}>
      <Text dimColor>Input</Text>
      <Text wrap="wrap">{input}</Text>
      <Text dimColor>{tool.result.isError ? 'Result (error)' : 'Result'}</Text>
      <Text color={tool.result.isError ? theme.color('error') : undefined} wrap="wrap">
        {resultText(tool.result) || '(empty)'}
      </Text>
      {tool.trace.length ? <Text dimColor wrap="wrap">{`Gates: ${tool.trace.map((g) => `${g.gate} ${g.verdict}`).join(' · ')}`}</Text> : null}
    </Box>
  );
}

/** A call still running (or waiting for an answer): header, then the tail of its output. */
export function LiveToolView({ tool, compact = false }: { tool: LiveTool; compact?: boolean }): React.ReactElement {
  const { theme } = useView();
  return (
    <Box flexDirection="column">
      <ToolHeader name={tool.name} input={tool.input} bullet={<Text color={theme.color('muted')}>{symbols.bullet}</Text>} />
      {compact ? null : tool.waiting ? (
        <ResultLine color={theme.color('warn')}>Waiting for your answer…</ResultLine>
      ) : tool.tail.length ? (
        <LinesBlock text={tool.tail.join('\n')} max={5} fromEnd />
      ) : (
        <ResultLine dim>Running…</ResultLine>
      )}
    </Box>
  );
}
