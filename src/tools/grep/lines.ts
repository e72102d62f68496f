/**
 * Parsing rg's output lines (shapes described in args.ts) and turning them into what the model
 * reads: `path:12:text` for a match, `path-13-text` for a context line, `--` between groups, as rg
 * prints them by default. Pure.
 */

export const SEPARATOR = '--';

/** A content line: the path rg printed, and everything after it in rg's usual form (`:12:text`). */
export interface ContentLine {
  path: string;
  body: string;
}

/**
 * One content-mode line. Returns a ContentLine, SEPARATOR for `--`, or the line itself (a string)
 * when it carries no path: rg's notice for a binary file given as the path.
 */
export function parseContentLine(line: string, lineNumbers: boolean): ContentLine | string {
  const nul = line.indexOf('\0');
  if (nul === -1) return line;
  const kind = line.charAt(nul + 1);
  const rest = line.slice(nul + 2);
  const inner = lineNumbers ? rest.indexOf('\0') : -1;
  // With line numbers: `12\0:text`; the second separator repeats the kind.
  const body = inner === -1 ? kind + rest : kind + rest.slice(0, inner) + kind + rest.slice(inner + 2);
  return { path: line.slice(0, nul), body };
}

/** `path` + body, or the body alone (without its leading separator) when paths are left out. */
export function formatContent(displayedPath: string | undefined, body: string): string {
  return displayedPath === undefined ? body.slice(1) : displayedPath + body;
}

/** A count-mode line `path\0N`. */
export function parseCountLine(line: string): { path: string; count: number } | undefined {
  const nul = line.lastIndexOf('\0');
  if (nul === -1) return undefined;
  const count = Number(line.slice(nul + 1));
  return Number.isFinite(count) ? { path: line.slice(0, nul), count } : undefined;
}
