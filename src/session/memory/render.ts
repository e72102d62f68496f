/**
 * The instruction files as the model reads them, in Claude Code's words: at the start, one
 * `<system-reminder>` at the head of the first user message (the header, then each file as
 * `Contents of <path> (<what it is>):`); a file given on touch, its own `<system-reminder>` after the
 * tool results. Files a Read deny rule kept out are named in a reminder of their own.
 */
import { withoutControlCharacters } from './auto-memory.js';
import type { InstructionFile, MemoryType, SkippedFile } from './types.js';

export const INSTRUCTIONS_HEADER =
  'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';

const DESCRIPTION: Record<MemoryType, string> = {
  Project: ' (project instructions, checked into the codebase)',
  Local: " (user's private project instructions, not checked in)",
  AutoMem: " (user's auto-memory, persists across conversations)",
  Managed: ' (organization-managed policy instructions)',
  User: " (user's private global instructions for all projects)",
};

export function reminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

/** The start's instruction text (without the reminder around it), or undefined when there is none. */
export function instructionsText(files: readonly InstructionFile[]): string | undefined {
  if (!files.length) return undefined;
  return `${INSTRUCTIONS_HEADER}\n\n${instructionEntries(files)}`;
}

/** Each file as `Contents of <path> (<what it is>):` and its text, one after another. */
export function instructionEntries(files: readonly Pick<InstructionFile, 'path' | 'type' | 'content'>[]): string {
  return files
    .map((f) => `Contents of ${f.path}${DESCRIPTION[f.type]}:\n\n${f.type === 'AutoMem' ? withoutControlCharacters(f.content).trim() : f.content.trim()}`)
    .join('\n\n');
}

/** The note on files a Read deny rule kept out (wicket's: Claude Code tells only the person). */
export function withheldText(denied: readonly SkippedFile[]): string | undefined {
  if (!denied.length) return undefined;
  const lines = denied.map((s) => `- ${s.path}${s.parent ? ` (imported by ${s.parent})` : ''}`);
  return `Instruction files not loaded (a Read deny rule covers each; do not try to read them):\n${lines.join('\n')}`;
}

/** The reminders of files given on touch, one text each; consecutive ones are joined by a line end. */
export function touchReminders(files: readonly InstructionFile[], denied: readonly SkippedFile[] = []): string[] {
  const texts = files.map((f) => reminder(`Contents of ${f.path}:\n\n${f.content}`));
  const note = withheldText(denied);
  if (note) texts.push(reminder(note));
  return texts.map((t, i) => (i < texts.length - 1 ? `${t}\n` : t));
}
