/** What the model reads about Glob. */
export const GLOB_LIMIT = 100;

export function globDescription(ctx: { cwd: string; platform: string }): string {
  return `Find files by name with a glob pattern. Fast on any size of codebase.
- Patterns: "**/*.ts" (every level), "src/**/*.{js,jsx}" (brace sets), "test/[a-c]*.ts" (character classes).
  Standard glob rules: "*.ts" matches only directly in the searched directory; use "**/" to go deeper.
- Searches the working directory (${ctx.cwd}) unless you pass path, a directory to search instead.
- Lists files only (no directories), newest first (by modification time), at most ${GLOB_LIMIT}; the result says how many more matched.
- Respects .gitignore, .ignore and .rgignore; skips .git/; includes hidden files unless ignored; does not follow symbolic links.
- Paths are relative to the working directory when the file is inside it, absolute otherwise; pass them to Read as they are.
- To search file contents, use Grep. Several independent searches can be made in one message and run together.`;
}
