/**
 * The prompt editor's model: text, cursor, and large pastes kept aside behind a short placeholder.
 * Pure functions over an immutable value, so every key is one small, testable step.
 */

export interface Paste {
  id: number;
  text: string;
  label: string;
  /** An image shown as `[Image #N]`: sent as an image block, not as text. */
  image?: { mediaType: string; data: string };
}

export interface Buffer {
  text: string;
  /** Index into `text` (0…text.length). */
  cursor: number;
  pastes: Paste[];
}

export const emptyBuffer: Buffer = { text: '', cursor: 0, pastes: [] };

/** Pastes longer than this (or with more lines) are shown collapsed. */
export const LARGE_PASTE_CHARS = 800;
export const LARGE_PASTE_LINES = 8;

export function fromText(text: string): Buffer {
  return { text, cursor: text.length, pastes: [] };
}

export function insert(b: Buffer, s: string): Buffer {
  return { ...b, text: b.text.slice(0, b.cursor) + s + b.text.slice(b.cursor), cursor: b.cursor + s.length };
}

/** Inserts pasted text; a large paste becomes `[Pasted text #N +L lines]` and is sent whole. */
export function paste(b: Buffer, raw: string): Buffer {
  const text = raw.replace(/\r\n?/g, '\n');
  const lines = text.replace(/\n$/, '').split('\n').length;
  if (text.length <= LARGE_PASTE_CHARS && lines <= LARGE_PASTE_LINES) return insert(b, text);
  const id = (b.pastes.at(-1)?.id ?? 0) + 1;
  const label = `[Pasted text #${id} +${lines} lines]`;
  return { ...insert(b, label), pastes: [...b.pastes, { id, text, label }] };
}

/** The text to send: placeholders replaced by what was pasted (images keep their `[Image #N]`). */
export function expand(b: Buffer): string {
  let out = b.text;
  for (const p of b.pastes) if (!p.image) out = out.split(p.label).join(p.text);
  return out;
}

/** Adds an image at the cursor as `[Image #N]` (N counts the prompt's images). */
export function attachImage(b: Buffer, image: { mediaType: string; data: string }): Buffer {
  const id = (b.pastes.at(-1)?.id ?? 0) + 1;
  const label = `[Image #${b.pastes.filter((p) => p.image).length + 1}]`;
  return { ...insert(b, label), pastes: [...b.pastes, { id, text: '', label, image }] };
}

/** The images still in the prompt (their label not deleted), in order. */
export function images(b: Buffer): Array<{ mediaType: string; data: string }> {
  return b.pastes.flatMap((p) => (p.image && b.text.includes(p.label) ? [p.image] : []));
}

export function backspace(b: Buffer): Buffer {
  if (b.cursor === 0) return b;
  const before = b.text.slice(0, b.cursor);
  const whole = b.pastes.find((p) => before.endsWith(p.label));
  const n = whole ? whole.label.length : charBefore(before);
  return { text: b.text.slice(0, b.cursor - n) + b.text.slice(b.cursor), cursor: b.cursor - n, pastes: whole ? b.pastes.filter((p) => p !== whole) : b.pastes };
}

export function deleteForward(b: Buffer): Buffer {
  if (b.cursor >= b.text.length) return b;
  const n = charAfter(b.text.slice(b.cursor));
  return { ...b, text: b.text.slice(0, b.cursor) + b.text.slice(b.cursor + n) };
}

export function left(b: Buffer): Buffer {
  return { ...b, cursor: Math.max(0, b.cursor - charBefore(b.text.slice(0, b.cursor))) };
}

export function right(b: Buffer): Buffer {
  return { ...b, cursor: Math.min(b.text.length, b.cursor + charAfter(b.text.slice(b.cursor))) };
}

export function lineStart(b: Buffer): Buffer {
  return { ...b, cursor: b.text.lastIndexOf('\n', b.cursor - 1) + 1 };
}

export function lineEnd(b: Buffer): Buffer {
  const nl = b.text.indexOf('\n', b.cursor);
  return { ...b, cursor: nl === -1 ? b.text.length : nl };
}

export function wordLeft(b: Buffer): Buffer {
  let i = b.cursor;
  while (i > 0 && /\s/.test(b.text[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(b.text[i - 1]!)) i--;
  return { ...b, cursor: i };
}

export function wordRight(b: Buffer): Buffer {
  let i = b.cursor;
  while (i < b.text.length && /\s/.test(b.text[i]!)) i++;
  while (i < b.text.length && !/\s/.test(b.text[i]!)) i++;
  return { ...b, cursor: i };
}

export function deleteWordBefore(b: Buffer): Buffer {
  const to = wordLeft(b).cursor;
  return { ...b, text: b.text.slice(0, to) + b.text.slice(b.cursor), cursor: to };
}

export function killToLineStart(b: Buffer): Buffer {
  const to = lineStart(b).cursor;
  return { ...b, text: b.text.slice(0, to) + b.text.slice(b.cursor), cursor: to };
}

export function killToLineEnd(b: Buffer): Buffer {
  const to = lineEnd(b).cursor;
  const end = to === b.cursor && to < b.text.length ? to + 1 : to;
  return { ...b, text: b.text.slice(0, b.cursor) + b.text.slice(end) };
}

/** Line and column of the cursor. */
export function cursorPos(b: Buffer): { line: number; col: number; lines: number } {
  const before = b.text.slice(0, b.cursor);
  const line = before.split('\n').length - 1;
  return { line, col: b.cursor - (before.lastIndexOf('\n') + 1), lines: b.text.split('\n').length };
}

/** Moves the cursor one line up or down, keeping the column; undefined at the first/last line. */
export function verticalMove(b: Buffer, dir: -1 | 1): Buffer | undefined {
  const lines = b.text.split('\n');
  const { line, col } = cursorPos(b);
  const target = line + dir;
  if (target < 0 || target >= lines.length) return undefined;
  let idx = 0;
  for (let i = 0; i < target; i++) idx += lines[i]!.length + 1;
  return { ...b, cursor: idx + Math.min(col, lines[target]!.length) };
}

function charBefore(s: string): number {
  const c = s.codePointAt(s.length - 2);
  return c !== undefined && c > 0xffff && s.length >= 2 ? 2 : 1;
}

function charAfter(s: string): number {
  const c = s.codePointAt(0);
  return c !== undefined && c > 0xffff ? 2 : 1;
}
