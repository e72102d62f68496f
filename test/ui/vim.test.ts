/** Vim keys over the prompt's buffer: modes, motions, operators, put and undo. */
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import * as B from '../../src/ui/input-buffer.js';
import { initialVim, vimKey, type VimState } from '../../src/ui/vim.js';

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
} as Key;

/** Presses keys ("<esc>" for Esc) from `text` with the cursor at the end, in NORMAL mode after an Esc. */
function press(text: string, keys: string[], at?: number): { b: B.Buffer; s: VimState; submitted: boolean } {
  let b = at === undefined ? B.fromText(text) : { ...B.fromText(text), cursor: at };
  let s: VimState = initialVim;
  let submitted = false;
  for (const k of keys) {
    const key = k === '<esc>' ? { ...noKey, escape: true } : k === '<enter>' ? { ...noKey, return: true } : noKey;
    const r = vimKey(s, k.startsWith('<') ? '' : k, key, b);
    if (r.kind === 'pass') b = B.insert(b, k);
    else if (r.kind === 'submit') {
      submitted = true;
      s = r.state;
    } else {
      s = r.state;
      b = r.buffer;
    }
  }
  return { b, s, submitted };
}

describe('vim keys', () => {
  it('Esc leaves INSERT for NORMAL (the cursor steps back); i, a, A, I go back to typing', () => {
    expect(press('hello', ['<esc>']).s.mode).toBe('normal');
    expect(press('hello', ['<esc>']).b.cursor).toBe(4);
    expect(press('hello', ['<esc>', '0', 'i', 'X']).b.text).toBe('Xhello');
    expect(press('hello world', ['<esc>', '0', 'A', '!']).b.text).toBe('hello world!');
    expect(press('  hi', ['<esc>', 'I', '>']).b.text).toBe('  >hi');
  });

  it('motions: h l w b e 0 ^ $', () => {
    expect(press('one two three', ['<esc>', '0', 'w', 'w']).b.cursor).toBe(8);
    expect(press('one two three', ['<esc>', 'b']).b.cursor).toBe(8);
    expect(press('one two three', ['<esc>', '0', 'e']).b.cursor).toBe(2);
    expect(press('one two', ['<esc>', '0', '$']).b.cursor).toBe(7);
    expect(press('one two', ['<esc>', 'h', 'h']).b.cursor).toBe(4);
  });

  it('operators: dw, cw, dd, D, x, then p puts what was deleted, u undoes', () => {
    expect(press('one two three', ['<esc>', '0', 'd', 'w']).b.text).toBe('two three');
    const cw = press('one two three', ['<esc>', '0', 'c', 'w', 'X']);
    expect(cw.b.text).toBe('X two three');
    expect(press('line one\nline two', ['<esc>', 'd', 'd']).b.text).toBe('line one\n');
    expect(press('keep this', ['<esc>', '0', 'w', 'D']).b.text).toBe('keep ');
    expect(press('abc', ['<esc>', '0', 'x', 'p']).b.text).toBe('bac');
    expect(press('one two', ['<esc>', '0', 'd', 'w', 'u']).b.text).toBe('one two');
  });

  it('Enter in NORMAL mode sends, and the next prompt starts in INSERT', () => {
    const r = press('go', ['<esc>', '<enter>']);
    expect(r.submitted).toBe(true);
    expect(r.s.mode).toBe('insert');
  });
});
