/**
 * A saved session's new name, given from the `/resume` picker (Ctrl+R) while another session runs:
 * a `custom-title` record appended to its transcript, as Claude Code's picker writes it.
 */
import { appendFileSync, closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Appends the name; a name of only spaces is no name and writes nothing. Returns the name written. */
export function renameSavedSession(file: string, sessionId: string, title: string): string | undefined {
  const name = title.replace(/\s+/g, ' ').trim();
  if (!name) return undefined;
  const record = JSON.stringify({ type: 'custom-title', customTitle: name, sessionId });
  appendFileSync(file, `${endsWithNewline(file) ? '' : '\n'}${record}\n`);
  return name;
}

/** Whether the file's last byte ends a line (an empty file does): a transcript cut mid-line keeps its own line. */
function endsWithNewline(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
