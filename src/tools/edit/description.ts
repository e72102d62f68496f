export function editDescription(): string {
  return `Performs an exact string replacement in a file.

- Read the file first: Edit refuses files you have not read in this conversation, and files that changed on disk since you read them (Read them again).
- old_string must match the file exactly, including indentation and whitespace. Copy it from Read's output without the line-number prefix (everything after the tab).
- The edit fails if old_string occurs more than once; add surrounding lines to make it unique, or set replace_all to replace every occurrence (useful for renaming).
- old_string and new_string must differ.
- An empty old_string creates a new file (and its directories) with new_string as its content.
- Line endings (CRLF), encoding and byte-order mark are kept as they are in the file; write new_string with plain newlines.
- For Jupyter notebooks use NotebookEdit.`;
}
