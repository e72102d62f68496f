/** Assistant text as terminal Markdown. Pure over its props; memoized per text and width. */
import { Text } from 'ink';
import React, { useMemo } from 'react';
import { renderMarkdown } from './markdown-text.js';
import { theme as defaultTheme, type Theme } from './theme.js';

export interface MarkdownProps {
  readonly text: string;
  /** Columns to wrap to. */
  readonly width: number;
  readonly theme?: Theme;
}

export const Markdown = React.memo(function Markdown({ text, width, theme = defaultTheme }: MarkdownProps): React.ReactElement | null {
  const out = useMemo(() => renderMarkdown(text, width, theme), [text, width, theme]);
  if (!out) return null;
  return <Text>{out}</Text>;
});
