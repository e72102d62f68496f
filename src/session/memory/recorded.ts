/**
 * The instruction files a session was given at its start, as its transcript keeps them, so that a
 * resumed session sends what Claude Code 2.1 sends: the start's files as they were first given (the
 * head of the first message does not change), and, with the first prompt after the resume, the files
 * that differ from their earlier copies (or are new) in one reminder, in Claude Code's words. Read
 * from Claude Code's `attachment` records of type `instructions` and from wicket's own
 * `wicket-instructions` records (which Claude Code passes over), in the order they were written.
 */
import { instructionEntries, reminder } from './render.js';
import type { InstructionFile, MemoryType } from './types.js';

export const INSTRUCTIONS_RECORD = 'wicket-instructions';

/** One file as a record keeps it. */
export interface RecordedFile {
  path: string;
  type: MemoryType;
  content: string;
}

export interface RecordedInstructions {
  /** The start's files as first given, in order. */
  head: RecordedFile[];
  /** The newest copy of each file given at the start or again since. */
  latest: Map<string, string>;
}

const TYPES = new Set<MemoryType>(['Managed', 'User', 'Project', 'Local', 'AutoMem']);

/** What a record holds; undefined when the record is not one of the start's files. */
function filesOf(entry: Record<string, unknown>): { files: RecordedFile[]; changed: boolean } | undefined {
  const body = entry.type === INSTRUCTIONS_RECORD ? entry : entry.type === 'attachment' ? (entry.attachment as Record<string, unknown> | undefined) : undefined;
  if (!body || (entry.type === 'attachment' && body.type !== 'instructions') || !Array.isArray(body.files)) return undefined;
  const files = (body.files as unknown[]).flatMap((f) => {
    const r = f as Partial<RecordedFile> | null;
    return r && typeof r.path === 'string' && typeof r.content === 'string' && TYPES.has(r.type as MemoryType)
      ? [{ path: r.path, type: r.type as MemoryType, content: r.content }]
      : [];
  });
  return { files, changed: body.changed === true };
}

/** The start's files a transcript recorded; undefined when it recorded none (an older session). */
export function recordedInstructions(entries: readonly Record<string, unknown>[]): RecordedInstructions | undefined {
  let head: RecordedFile[] | undefined;
  const latest = new Map<string, string>();
  for (const entry of entries) {
    const found = filesOf(entry);
    if (!found) continue;
    if (!head && !found.changed) head = found.files;
    for (const f of found.files) latest.set(f.path, f.content);
  }
  return head ? { head, latest } : undefined;
}

/** As a record keeps a file. */
export function asRecorded(f: InstructionFile): RecordedFile {
  return { path: f.path, type: f.type, content: f.content };
}

/** The start's files as they are now that differ from their newest recorded copy, or have none. */
export function changedSince(files: readonly InstructionFile[], recorded: RecordedInstructions): InstructionFile[] {
  return files.filter((f) => recorded.latest.get(f.path)?.trim() !== f.content.trim());
}

/** The reminder that gives them again, with the first prompt after the resume (Claude Code's words). */
export function rereadReminder(files: readonly InstructionFile[]): string {
  return reminder(
    `Instruction files were re-read when this session started; these differ from their earlier copies \u2014 each replaces its earlier copy, and the instructions preamble above still applies:\n\n${instructionEntries(files)}`,
  );
}
