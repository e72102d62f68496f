/** Grep and Glob: the pattern, and how much was found. */
import React from 'react';
import { ResultLine, resultText, showPath, str, type ToolRenderer } from './common.js';

function SearchResult({ tool }: Parameters<NonNullable<ToolRenderer['Result']>>[0]): React.ReactElement {
  const summary = tool.display?.summary ?? firstLine(resultText(tool.result));
  return <ResultLine dim>{summary}</ResultLine>;
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? '';
}

function where(input: Record<string, unknown>, cwd: string): string {
  const parts: string[] = [];
  if (input.path) parts.push(`in ${showPath(input.path, cwd)}`);
  if (input.glob) parts.push(`glob ${str(input.glob)}`);
  if (input.type) parts.push(`type ${str(input.type)}`);
  return parts.length ? ` · ${parts.join(' · ')}` : '';
}

export const grepView: ToolRenderer = {
  title: (input, cwd) => `"${str(input.pattern)}"${where(input, cwd)}`,
  Result: SearchResult,
};

export const globView: ToolRenderer = {
  title: (input, cwd) => `${str(input.pattern)}${where(input, cwd)}`,
  Result: SearchResult,
};
