/** What every view needs to know about the screen: width, project folder, colors. */
import { createContext, useContext } from 'react';
import { theme, type Theme } from './theme.js';

export interface ViewInfo {
  /** Terminal columns. */
  columns: number;
  /** Terminal rows. */
  rows: number;
  /** Paths are shown relative to this folder. */
  cwd: string;
  theme: Theme;
  /** Sub-agent types with a `color` in their definition → that color's name (red, blue, …, purple, orange, pink, cyan). */
  agentColors?: Readonly<Record<string, string>>;
  /** The full transcript (Ctrl+O): every tool call's input and output in full. */
  verbose?: boolean;
}

export const ViewContext = createContext<ViewInfo>({ columns: 100, rows: 24, cwd: process.cwd(), theme });

export function useView(): ViewInfo {
  return useContext(ViewContext);
}
