/**
 * Colors and symbols for the terminal app, in Claude Code's themes (`/theme`). `NO_COLOR` (any
 * non-empty value) turns every color off in every theme; bold, dim and inverse stay, as the
 * NO_COLOR convention allows.
 */
import { Chalk, type ChalkInstance } from 'chalk';

export type ColorName = 'accent' | 'user' | 'tool' | 'ok' | 'warn' | 'error' | 'muted' | 'added' | 'removed' | 'mode' | 'bash';

type Palette = Record<ColorName, string>;

const DARK: Palette = {
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

/**
 * Claude Code's themes: dark, light, their colour-blind-safe ("daltonized": blue and orange where
 * the others use green and red) and 16-colour ANSI variants.
 */
const PALETTES: Record<string, Palette> = {
  dark: DARK,
  light: {
    ...DARK,
    accent: '#005f87',
    user: '#0000d7',
    tool: '#870087',
    ok: '#008700',
    warn: '#875f00',
    error: '#d70000',
    added: '#008700',
    removed: '#d70000',
    mode: '#875f00',
    bash: '#d7005f',
  },
  'dark-daltonized': { ...DARK, ok: '#0087ff', added: '#0087ff', error: '#ff8700', removed: '#ff8700', warn: '#ffd75f' },
  'light-daltonized': {
    ...DARK,
    accent: '#005f87',
    user: '#0000d7',
    tool: '#870087',
    ok: '#005faf',
    added: '#005faf',
    error: '#d75f00',
    removed: '#d75f00',
    warn: '#875f00',
    mode: '#875f00',
    bash: '#d7005f',
  },
  'dark-ansi': { ...DARK, user: 'blue', bash: 'magenta' },
  'light-ansi': { ...DARK, accent: 'blue', user: 'blue', ok: 'green', warn: 'magenta', mode: 'magenta', bash: 'magenta', muted: 'blackBright' },
};

export interface Theme {
  /** dark, light, dark-daltonized, light-daltonized, dark-ansi or light-ansi. */
  readonly name: string;
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

export function makeTheme(env: Record<string, string | undefined> = process.env, name = 'dark'): Theme {
  const noColor = typeof env.NO_COLOR === 'string' && env.NO_COLOR !== '';
  const chalk = noColor ? new Chalk({ level: 0 }) : new Chalk();
  const palette = PALETTES[name] ?? DARK;
  return {
    name: PALETTES[name] ? name : 'dark',
    noColor,
    chalk,
    color: (c) => (noColor ? undefined : palette[c]),
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
