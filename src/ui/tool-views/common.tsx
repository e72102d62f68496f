/** Small pieces shared by the tool views: paths, result text, the "⎿" result line, gate failures. */
import path from 'node:path';
import { Box, Text } from 'ink';
import React from 'react';
import type { GateName, GateTrace, ModelResult } from '../../base/events.js';
import { symbols } from '../theme.js';
import type { FinishedTool } from '../types.js';
import { useView } from '../view-context.js';

export interface ToolRenderer {
  /** What goes inside the parentheses of the header, e.g. `src/a.ts` for `Edit(src/a.ts)`. */
  title(input: Record<string, unknown>, cwd: string): string;
  /** The body under the header for a call that ran; absent → the generic one. */
  Result?: React.FC<{ tool: FinishedTool }>;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
}

/** A path as the person thinks of it: relative to the project when inside it. */
export function showPath(p: unknown, cwd: string): string {
  const s = str(p);
  if (!s || !path.isAbsolute(s)) return s;
  const rel = path.relative(cwd, s);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : s;
}

export function oneLine(s: string, max = 80): string {
  const first = s.split('\n')[0] ?? '';
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return s.includes('\n') && cut === first ? `${cut} …` : cut;
}

export function resultText(result: ModelResult): string {
  if (typeof result.content === 'string') return result.content;
  return result.content.map((b) => (b.type === 'text' ? b.text : b.type === 'image' ? `[image]` : `Loaded ${b.tool_name}`)).join('\n');
}

/** The "⎿ text" line under a tool header. */
export function ResultLine({ children, color, dim }: { children: React.ReactNode; color?: string; dim?: boolean }): React.ReactElement {
  return (
    <Box>
      <Text dimColor>{`  ${symbols.result}  `}</Text>
      <Box flexShrink={1}>
        <Text color={color} dimColor={dim} wrap="wrap">
          {children}
        </Text>
      </Box>
    </Box>
  );
}

/** Lines of text under a tool, cut to `max` with a count of the rest. */
export function LinesBlock({ text, max, fromEnd = false }: { text: string; max: number; fromEnd?: boolean }): React.ReactElement | null {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(/\n+$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return null;
  const shown = fromEnd ? lines.slice(-max) : lines.slice(0, max);
  const more = lines.length - shown.length;
  return (
    <Box flexDirection="column" paddingLeft={5}>
      {fromEnd && more > 0 ? <Text dimColor>{`… ${more} earlier lines`}</Text> : null}
      {shown.map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {l || ' '}
        </Text>
      ))}
      {!fromEnd && more > 0 ? <Text dimColor>{`… ${more} more lines`}</Text> : null}
    </Box>
  );
}

const GATE_LABEL: Record<GateName, string> = {
  find: 'tool lookup',
  parse: 'input check',
  validate: 'validation',
  hooks: 'PreToolUse hook',
  permission: 'permission',
  execute: 'execution',
  map: 'result mapping',
  post_hooks: 'PostToolUse hook',
};

/** The gate that stopped a call, in words: "permission: deny rule Bash(rm *) [projectSettings]". */
export function stoppedBy(trace: GateTrace): string | undefined {
  const r = trace.find((g) => g.verdict === 'refused' || g.verdict === 'denied' || g.verdict === 'failed' || g.verdict === 'aborted');
  if (!r) return undefined;
  return `${GATE_LABEL[r.gate]} ${r.verdict}${r.detail ? `: ${r.detail}` : ''}`;
}

/** A call that did not run or failed: which gate stopped it, and what the model was told. */
export function FailedResult({ tool }: { tool: FinishedTool }): React.ReactElement {
  const { theme, cwd } = useView();
  const by = stoppedBy(tool.trace);
  const text = resultText(tool.result).trim();
  const aborted = tool.trace.some((g) => g.verdict === 'aborted');
  if (aborted) return <ResultLine color={theme.color('warn')}>Interrupted</ResultLine>;
  const rejection = rejectedText(tool, cwd);
  if (rejection) return <ResultLine dim>{rejection}</ResultLine>;
  return (
    <Box flexDirection="column">
      <ResultLine color={theme.color('error')}>{by ?? 'failed'}</ResultLine>
      {text && text !== by ? <LinesBlock text={text} max={4} /> : null}
    </Box>
  );
}

/** Output under a tool: the first line on the "⎿" row, or "… N earlier lines" there and the tail below. */
export function OutputTail({ text, max = 8 }: { text: string; max?: number }): React.ReactElement | null {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  if (lines.length <= max) {
    return (
      <Box flexDirection="column">
        <ResultLine dim>{lines[0]}</ResultLine>
        {lines.length > 1 ? <LinesBlock text={lines.slice(1).join('\n')} max={max} /> : null}
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <ResultLine dim>{`… ${lines.length - max} earlier lines`}</ResultLine>
      <LinesBlock text={lines.slice(-max).join('\n')} max={max} />
    </Box>
  );
}

const REJECTED_VERB: Record<string, string> = { Edit: 'update', MultiEdit: 'update', Write: 'write', NotebookEdit: 'edit' };

/** A call the person said no to, stopping the turn: "Rejected update to src/a.ts", as Claude Code says it. */
export function rejectedText(tool: FinishedTool, cwd: string): string | undefined {
  const r = tool.trace.find((g) => g.gate === 'permission' && g.verdict === 'denied');
  if (!r?.detail?.endsWith('→ answer: no, stop')) return undefined;
  const input = (tool.input && typeof tool.input === 'object' ? tool.input : {}) as Record<string, unknown>;
  const file = showPath(input.file_path ?? input.notebook_path, cwd);
  const verb = REJECTED_VERB[tool.name];
  return verb && file ? `Rejected ${verb} to ${file}` : 'Rejected';
}
