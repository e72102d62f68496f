/**
 * What a person should know before going on with a resumed session: that it was last used in another
 * folder, or that files it worked on changed since its last message (an edit made outside it, a
 * checkout), so that what the conversation says of them may no longer hold.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { ApiMessage } from '../base/events.js';

/** The tools whose input names a file the session worked on, and the field that names it. */
const FILE_FIELDS: Record<string, string> = { Read: 'file_path', Edit: 'file_path', MultiEdit: 'file_path', Write: 'file_path', NotebookEdit: 'notebook_path' };

const SHOWN = 5;

export interface ResumedPlace {
  messages: readonly ApiMessage[];
  /** The folder the session last worked in, and the time of its last record. */
  cwd?: string;
  lastTimestamp?: string;
}

/** Lines for the person, before the first prompt of a resumed session; none when nothing changed. */
export function resumeNotes(saved: ResumedPlace, cwd: string): string[] {
  if (!saved.messages.length) return [];
  const notes: string[] = [];
  if (saved.cwd && path.resolve(saved.cwd) !== path.resolve(cwd))
    notes.push(`This session was last used in ${saved.cwd}; it now goes on in ${cwd}, so relative paths in it may point elsewhere.`);
  const since = saved.lastTimestamp ? Date.parse(saved.lastTimestamp) : Number.NaN;
  if (Number.isFinite(since)) {
    const changed = changedFiles(saved.messages, saved.cwd ?? cwd, since);
    if (changed.length) {
      const names = changed.slice(0, SHOWN).join(', ');
      const more = changed.length > SHOWN ? ` and ${changed.length - SHOWN} more` : '';
      notes.push(
        changed.length === 1
          ? `A file this session worked on changed since its last message: ${names}. Have it read again before relying on what the conversation says of it.`
          : `${changed.length} files this session worked on changed since its last message: ${names}${more}. Have them read again before relying on what the conversation says of them.`,
      );
    }
  }
  return notes;
}

/** Files the session read or wrote whose modification time is after `since`. */
export function changedFiles(messages: readonly ApiMessage[], base: string, since: number): string[] {
  const files = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_use' || !(b.name in FILE_FIELDS)) continue;
      const value = (b.input as Record<string, unknown> | null)?.[FILE_FIELDS[b.name]!];
      if (typeof value === 'string' && value) files.add(path.resolve(base, value));
    }
  }
  return [...files].filter((f) => {
    try {
      return statSync(f).mtimeMs > since + 1;
    } catch {
      return false;
    }
  });
}
