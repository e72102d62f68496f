/**
 * Colors and symbols for the terminal app. `NO_COLOR` (any non-empty value) turns every color off;
 * bold, dim and inverse stay, as the NO_COLOR convention allows.
 */
import { Chalk, type ChalkInstance } from 'chalk';

export type ColorName = 'accent' | 'user' | 'tool' | 'ok' | 'warn' | 'error' | 'muted' | 'added' | 'removed' | 'mode' | 'bash';

const PALETTE: Record<ColorName, string> = {
  accent: 'cyan',
  user: 'blueBright',
  tool: 'magenta',
  ok: 'green',
  warn: 'yellow',
  error: 'red',
  muted: 'gray',
  added: 'green',
  removed: 'red',
  mode: 'yellow',
  bash: '#ff87d7',
};

export interface Theme {
  readonly noColor: boolean;
  /** An Ink color name, or undefined when colors are off. */
  color(name: ColorName): string | undefined;
  /** The Ink color for a sub-agent's `color` (Claude Code's names), or undefined when colors are off. */
  agentColor(name: string | undefined): string | undefined;
  /** A chalk for strings rendered outside Ink's <Text> (markdown, highlighted code). */
  readonly chalk: ChalkInstance;
}

/** Sub-agent colors (frontmatter `color`) as terminal colors. */
const AGENT_PALETTE: Record<string, string> = {
  red: 'red',
  blue: 'blue',
  green: 'green',
  yellow: 'yellow',
  purple: 'magenta',
  orange: '#ff8700',
  pink: '#ff87d7',
  cyan: 'cyan',
};

export function makeTheme(env: Record<string, string | undefined> = process.env): Theme {
  const noColor = typeof env.NO_COLOR === 'string' && env.NO_COLOR !== '';
  const chalk = noColor ? new Chalk({ level: 0 }) : new Chalk();
  return {
    noColor,
    chalk,
    color: (name) => (noColor ? undefined : PALETTE[name]),
    agentColor: (name) => (noColor || !name ? undefined : AGENT_PALETTE[name]),
  };
}

/** The theme of this process; components take it from here unless a test passes its own. */
export const theme: Theme = makeTheme();

export const symbols = {
  prompt: '❯',
  bullet: '●',
  result: '⎿',
  ok: '✓',
  fail: '✗',
  pointer: '❯',
  spinner: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'],
} as const;
