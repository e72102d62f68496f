/**
 * Vim keys for the prompt (`/vim`, or `editorMode: "vim"`), as Claude Code's vim mode: INSERT types
 * text, Esc goes to NORMAL, where keys move and edit: h l j k, w b e, 0 ^ $, x X, i a I A o O,
 * d c y with a motion (dd cc yy dw cw de db d$ …), D C, p P, r, ~, u (undo), and Enter sends.
 * Pure over the prompt's buffer: each key gives the next state and buffer.
 */
import type { Key } from 'ink';
import * as B from './input-buffer.js';

export type VimMode = 'insert' | 'normal';

export interface VimState {
  mode: VimMode;
  /** An operator (d, c, y), a `g` or an `r`, waiting for its motion or character. */
  pending?: string;
  /** The last yanked or deleted text (`p` puts it). */
  register: string;
  /** The buffer before the last change, for `u`. */
  undo?: B.Buffer;
}

export const initialVim: VimState = { mode: 'insert', register: '' };

export type VimResult =
  /** The key is the prompt's own (INSERT mode typing, arrows): handle it as without vim. */
  { kind: 'pass' } | { kind: 'submit'; state: VimState } | { kind: 'done'; state: VimState; buffer: B.Buffer };

const isWord = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** The index `motion` moves the cursor to, or undefined for a key that is no motion. */
function motion(b: B.Buffer, m: string): number | undefined {
  const t = b.text;
  let i = b.cursor;
  switch (m) {
    case 'h':
      return B.left(b).cursor < B.lineStart(b).cursor ? i : Math.max(B.lineStart(b).cursor, i - 1);
    case 'l':
      return Math.min(B.lineEnd(b).cursor, i + 1);
    case '0':
      return B.lineStart(b).cursor;
    case '^': {
      let j = B.lineStart(b).cursor;
      while (j < t.length && (t[j] === ' ' || t[j] === '\t')) j++;
      return j;
    }
    case '$':
      return B.lineEnd(b).cursor;
    case 'w': {
      const word = isWord(t[i]);
      while (i < t.length && !/\s/.test(t[i]!) && isWord(t[i]) === word) i++;
      while (i < t.length && /\s/.test(t[i]!)) i++;
      return i;
    }
    case 'e': {
      i = Math.min(t.length, i + 1);
      while (i < t.length && /\s/.test(t[i]!)) i++;
      const word = isWord(t[i]);
      while (i + 1 < t.length && !/\s/.test(t[i + 1]!) && isWord(t[i + 1]) === word) i++;
      return i;
    }
    case 'b': {
      while (i > 0 && /\s/.test(t[i - 1]!)) i--;
      const word = isWord(t[i - 1]);
      while (i > 0 && !/\s/.test(t[i - 1]!) && isWord(t[i - 1]) === word) i--;
      return i;
    }
    default:
      return undefined;
  }
}

/** The range an operator covers with `m` (a motion, or the operator again for the whole line). */
function range(b: B.Buffer, op: string, m: string): [number, number] | undefined {
  if (m === op) {
    const start = B.lineStart(b).cursor;
    const end = B.lineEnd(b).cursor;
    return [start, end < b.text.length && op !== 'c' ? end + 1 : end];
  }
  // `cw` changes to the end of the word, as vim does (the space after it stays).
  const move = op === 'c' && m === 'w' && !/\s/.test(b.text[b.cursor] ?? ' ') ? 'e' : m;
  const to = motion(b, move);
  if (to === undefined) return undefined;
  const end = move === 'e' || move === '$' ? Math.max(to, b.cursor) + (move === 'e' ? 1 : 0) : to;
  return end >= b.cursor ? [b.cursor, Math.min(end, b.text.length)] : [end, b.cursor];
}

function cut(b: B.Buffer, [from, to]: [number, number]): B.Buffer {
  return { ...b, text: b.text.slice(0, from) + b.text.slice(to), cursor: from };
}

const at = (b: B.Buffer, cursor: number): B.Buffer => ({ ...b, cursor: Math.max(0, Math.min(cursor, b.text.length)) });

/** One key in vim mode. */
export function vimKey(s: VimState, input: string, key: Key, b: B.Buffer): VimResult {
  if (s.mode === 'insert') {
    if (!key.escape) return { kind: 'pass' };
    return { kind: 'done', state: { ...s, mode: 'normal', pending: undefined }, buffer: at(b, Math.max(B.lineStart(b).cursor, b.cursor - 1)) };
  }
  if (key.return) return { kind: 'submit', state: { ...s, mode: 'insert', pending: undefined } };
  if (key.escape) return { kind: 'done', state: { ...s, pending: undefined }, buffer: b };
  if (key.leftArrow || key.rightArrow || key.upArrow || key.downArrow || key.ctrl || key.meta) return { kind: 'pass' };
  const done = (state: VimState, buffer: B.Buffer, changed = false): VimResult => ({
    kind: 'done',
    state: { ...state, pending: undefined, ...(changed ? { undo: b } : {}) },
    buffer,
  });
  if (s.pending === 'r')
    return input.length === 1 && b.cursor < b.text.length
      ? done(s, at({ ...b, text: b.text.slice(0, b.cursor) + input + b.text.slice(b.cursor + 1) }, b.cursor), true)
      : done(s, b);
  if (s.pending === 'g') return done(s, input === 'g' ? at(b, 0) : b);
  if (s.pending) {
    const r = range(b, s.pending, input);
    if (!r) return done(s, b);
    const register = b.text.slice(r[0], r[1]);
    if (s.pending === 'y') return done({ ...s, register }, b);
    const next = cut(b, r);
    return done({ ...s, register, mode: s.pending === 'c' ? 'insert' : 'normal' }, next, true);
  }
  const to = motion(b, input);
  if (to !== undefined) return done(s, at(b, to));
  if (input === 'j' || input === 'k') return done(s, B.verticalMove(b, input === 'j' ? 1 : -1) ?? b);
  return command(s, input, b, done);
}

function command(s: VimState, input: string, b: B.Buffer, done: (state: VimState, buffer: B.Buffer, changed?: boolean) => VimResult): VimResult {
  const insert = (cursor: number) => done({ ...s, mode: 'insert' }, at(b, cursor));
  switch (input) {
    case 'i':
      return insert(b.cursor);
    case 'a':
      return insert(Math.min(B.lineEnd(b).cursor, b.cursor + 1));
    case 'I':
      return insert(motion(b, '^')!);
    case 'A':
      return insert(B.lineEnd(b).cursor);
    case 'o':
      return done({ ...s, mode: 'insert' }, B.insert(B.lineEnd(b), '\n'), true);
    case 'O': {
      const start = B.lineStart(b);
      return done({ ...s, mode: 'insert' }, at(B.insert(start, '\n'), start.cursor), true);
    }
    case 'x':
      return b.cursor < B.lineEnd(b).cursor ? done({ ...s, register: b.text[b.cursor]! }, B.deleteForward(b), true) : done(s, b);
    case 'X':
      return b.cursor > B.lineStart(b).cursor ? done(s, B.backspace(b), true) : done(s, b);
    case 'D':
    case 'C': {
      const end = B.lineEnd(b).cursor;
      return done({ ...s, register: b.text.slice(b.cursor, end), mode: input === 'C' ? 'insert' : 'normal' }, cut(b, [b.cursor, end]), true);
    }
    case 'p':
    case 'P': {
      if (!s.register) return done(s, b);
      const where = input === 'p' && b.text ? Math.min(b.text.length, b.cursor + 1) : b.cursor;
      const put = B.insert(at(b, where), s.register);
      return done(s, at(put, put.cursor - 1), true);
    }
    case '~': {
      const c = b.text[b.cursor];
      if (c === undefined) return done(s, b);
      const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      return done(s, at({ ...b, text: b.text.slice(0, b.cursor) + flipped + b.text.slice(b.cursor + 1) }, b.cursor + 1), true);
    }
    case 'u':
      return s.undo ? { kind: 'done', state: { ...s, pending: undefined, undo: undefined }, buffer: s.undo } : done(s, b);
    case 'G':
      return done(s, at(b, b.text.length));
    case 'd':
    case 'c':
    case 'y':
    case 'g':
    case 'r':
      return { kind: 'done', state: { ...s, pending: input }, buffer: b };
    default:
      return done(s, b);
  }
}
