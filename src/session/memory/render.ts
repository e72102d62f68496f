/**
 * The instruction files as the model reads them, in Claude Code's words: at the start, one
 * `<system-reminder>` at the head of the first user message (the header, then each file as
 * `Contents of <path> (<what it is>):`); a file given on touch, its own `<system-reminder>` after the
 * tool results. The AGENTS.md files a read brings come last, together in one reminder, as Claude
 * Code's agents-md part gives them: as a hook's additional context (`tool.call` for a Read,
 * `prompt.mention` for an @-mention). Files a Read deny rule kept out are named in a reminder of their own.
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

/** What brought a touch's files: a tool call (Read, Edit, Write…) or an @-mention in the prompt. */
export type TouchVia = 'tool' | 'mention';

/** The words before the AGENTS.md files a read brings (Claude Code's hook events). */
export const AGENTS_CONTEXT: Record<TouchVia, string> = {
  tool: 'tool.call hook additional context: ',
  mention: 'prompt.mention hook additional context: ',
};

/**
 * The reminders of files given on touch, one text each (the AGENTS.md files together, last);
 * consecutive ones are joined by a line end.
 */
export function touchReminders(files: readonly InstructionFile[], denied: readonly SkippedFile[] = [], via: TouchVia = 'tool'): string[] {
  const texts = files.filter((f) => !f.agents).map((f) => reminder(`Contents of ${f.path}:\n\n${f.content}`));
  const note = withheldText(denied);
  if (note) texts.push(reminder(note));
  const agents = files.filter((f) => f.agents);
  if (agents.length) texts.push(reminder(AGENTS_CONTEXT[via] + agents.map((f) => `Contents of ${f.path}:\n\n${f.content}`).join('\n')));
  return texts.map((t, i) => (i < texts.length - 1 ? `${t}\n` : t));
}
