import { DEFAULT_LINE_LIMIT, MAX_LINE_CHARS, MAX_PDF_PAGES_PER_CALL, MAX_PDF_PAGES_WITHOUT_RANGE } from './limits.js';

export function readDescription(ctx: { cwd: string }): string {
  return `Reads a file from the local filesystem.

- file_path should be an absolute path; a relative path is resolved against the working directory (${ctx.cwd}).
- By default it reads up to ${DEFAULT_LINE_LIMIT} lines from the start of the file. For long files, pass offset (1-based line number) and limit to read a part; the result says how many lines exist and how to read on.
- Lines come back numbered, as \`N<TAB>line\`; the number and tab are not part of the file. Lines longer than ${MAX_LINE_CHARS} characters are cut.
- Images (PNG, JPEG, GIF, WebP) are shown to you as images.
- PDFs come back as text per page. A PDF with more than ${MAX_PDF_PAGES_WITHOUT_RANGE} pages needs pages (e.g. "1-5"); at most ${MAX_PDF_PAGES_PER_CALL} pages per call.
- Jupyter notebooks (.ipynb) come back as cells with their outputs; use the cell ids with NotebookEdit.
- Directories cannot be read: use Glob, or ls through Bash. Binary files and device files are refused.
- Reading the same unchanged range twice returns a short note instead of the content again.
- Read a file before you edit or overwrite it: Edit and Write refuse files you have not read, and files that changed since you read them.
- You can read several files at once by calling Read several times in one message.`;
}
