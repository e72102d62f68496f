import { describe, expect, it } from 'vitest';
import stripAnsi from 'strip-ansi';
import { visibleWidth, wrapAnsi } from '../../src/ui/wrap.js';

describe('wrapAnsi', () => {
  it('wraps at spaces and indents list continuations', () => {
    const out = wrapAnsi('  * alpha beta gamma delta epsilon', 20);
    expect(out).toBe('  * alpha beta gamma\n    delta epsilon');
  });

  it('cuts words longer than the width and leaves short lines alone', () => {
    expect(wrapAnsi('abcdefghijkl', 5)).toBe('abcde\nfghij\nkl');
    expect(wrapAnsi('short\nlines', 10)).toBe('short\nlines');
  });

  it('keeps colors across the break', () => {
    const red = '\x1b[31m';
    const out = wrapAnsi(`${red}one two three four\x1b[39m`, 9);
    const rows = out.split('\n');
    expect(rows.map((r) => stripAnsi(r))).toEqual(['one two', 'three', 'four']);
    expect(rows[1]!.startsWith(red)).toBe(true);
    expect(rows.every((r) => visibleWidth(r) <= 9)).toBe(true);
  });

  it('measures wide characters and ignores escape codes', () => {
    expect(visibleWidth('\x1b[1mbold\x1b[22m')).toBe(4);
    expect(visibleWidth('日本')).toBe(4);
  });
});
