export function writeDescription(): string {
  return `Writes a file to the local filesystem, creating it (and its directories) or replacing it whole.

- To overwrite an existing file you must have read it first in this conversation, and it must not have changed since; otherwise Write refuses. Read it again if it did.
- Prefer Edit for changes to existing files: it sends only the part that changes.
- The file's encoding, byte-order mark and CRLF line endings are kept when it is overwritten; write content with plain newlines.
- Do not create documentation files (*.md, README) unless asked to.`;
}
