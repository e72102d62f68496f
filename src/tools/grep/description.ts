/** What the model reads about Grep, and the limits it mentions. */
import { formatCount } from '../../base/paths.js';
import { MAX_COLUMNS } from './args.js';

/** Lines (content) or entries (files, count) per page when head_limit is not given. */
export const DEFAULT_HEAD_LIMIT = 250;
/** Characters per page, whatever head_limit says, so one call cannot flood the context. */
export const MAX_RESULT_CHARS = 30_000;

export function grepDescription(ctx: { cwd: string; platform: string }): string {
  return `Search file contents with a regular expression. Built on ripgrep; use it instead of running grep or rg in Bash.
- Regex syntax is ripgrep's (Rust): "log.*Error", "function\\s+\\w+". Literal braces and parentheses need escaping: "interface\\{\\}", "foo\\(".
  Look-around and backreferences work too.
- Searches the working directory (${ctx.cwd}) unless you pass path (a directory or a single file).
- Filter files with glob ("*.js", "**/*.tsx", "*.{ts,tsx}") or type ("js", "py", "rust": ripgrep's file types).
- output_mode: "files_with_matches" (default) lists matching files; "content" shows matching lines as path:line:text,
  with context lines (-A, -B, -C/context) as path-line-text and "--" between groups; "count" shows matching lines per file.
- Results come in path order, ${DEFAULT_HEAD_LIMIT} lines or entries per page by default (head_limit; 0 means no line limit,
  but a page never exceeds ${formatCount(MAX_RESULT_CHARS)} characters). The result says when more exist; pass offset to get the next page.
- Lines longer than ${MAX_COLUMNS} characters are shortened. Patterns match within one line unless multiline is true
  (then "." also matches newlines, e.g. "struct \\{[\\s\\S]*?field").
- Respects .gitignore, .ignore and .rgignore; skips .git/ and binary files; includes hidden files unless ignored; does not follow symbolic links.
- Paths are relative to the working directory when the file is inside it, absolute otherwise.
- To find files by name, use Glob. Several independent searches can be made in one message and run together.`;
}
