/**
 * Grep input → rg arguments. Pure, so every flag combination can be tested without running rg.
 *
 * Output shapes the parsers rely on:
 * - files_with_matches: `-l --null`, one NUL-terminated path per file;
 * - count: `--count --null`, `path\0N` lines;
 * - content: `--with-filename` with field separators `\0:` (match) and `\0-` (context), so a line is
 *   `path\0:12\0:text` or `path\0-13\0-text` (without line numbers `path\0:text`), whatever characters
 *   the path or text hold; `--` separates groups of context.
 */
import { BASE_FLAGS, excludeGlobs } from '../ripgrep/common.js';
import { pruneTypeArgs } from './glob-filter.js';

export type OutputMode = 'content' | 'files_with_matches' | 'count';

export interface GrepArgsInput {
  pattern: string;
  glob?: string;
  type?: string;
  output_mode?: OutputMode;
  '-A'?: number;
  '-B'?: number;
  '-C'?: number;
  context?: number;
  '-n'?: boolean;
  '-i'?: boolean;
  multiline?: boolean;
}

export interface GrepArgsOptions {
  /** The path argument, relative to rg's cwd. */
  target: string;
  /** `--sort path`: one thread, output in path order, so it can be cut at any line. */
  sorted: boolean;
  denyGlobs: readonly string[];
  atProjectRoot: boolean;
  /** Deny patterns already relative to rg's working directory. */
  rgCwdDenyGlobs?: readonly string[];
  /** Flags added to rg's (gitignoreFlags). */
  extraFlags?: readonly string[];
}

/** Longest line printed in content mode; rg shows a preview of longer ones. */
export const MAX_COLUMNS = 500;

function contextFlags(input: GrepArgsInput): string[] {
  const flags: string[] = [];
  const around = input.context ?? input['-C'];
  if (around !== undefined) flags.push('--context', String(around));
  if (input['-B'] !== undefined) flags.push('--before-context', String(input['-B']));
  if (input['-A'] !== undefined) flags.push('--after-context', String(input['-A']));
  return flags;
}

function modeFlags(input: GrepArgsInput): string[] {
  const mode = input.output_mode ?? 'files_with_matches';
  if (mode === 'files_with_matches') return ['--files-with-matches', '--null'];
  if (mode === 'count') return ['--count', '--null'];
  return [
    '--with-filename',
    '--no-heading',
    input['-n'] === false ? '--no-line-number' : '--line-number',
    '--field-match-separator=\\x00:',
    '--field-context-separator=\\x00-',
    '--max-columns',
    String(MAX_COLUMNS),
    '--max-columns-preview',
    ...contextFlags(input),
  ];
}

export function grepArgs(input: GrepArgsInput, opts: GrepArgsOptions): string[] {
  const args = [...BASE_FLAGS, ...(opts.extraFlags ?? []), '--color', 'never', '--no-messages', '--engine', 'auto'];
  if (opts.sorted) args.push('--sort', 'path');
  args.push(...modeFlags(input));
  if (input['-i']) args.push('--ignore-case');
  if (input.multiline) args.push('--multiline', '--multiline-dotall');
  if (input.type) args.push(`--type=${input.type}`);
  // The model's globs are matched in glob-filter.ts; rg only prunes by file name.
  args.push(...pruneTypeArgs(input.glob, input.type));
  args.push(...excludeGlobs(opts.denyGlobs, opts.atProjectRoot, opts.rgCwdDenyGlobs));
  // `=` forms keep a value that starts with `-` from being read as a flag.
  args.push(`--regexp=${input.pattern}`, '--', opts.target);
  return args;
}
