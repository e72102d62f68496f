/**
 * The app's text measuring with fast paths (src/ui/lib/): for every code point up to U+2BFF, alone
 * and with neighbours, joiners and selectors, the same widths as string-width and the same
 * graphemes as Intl.Segmenter.
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { allAlone, graphemeSegmenter } from '../../src/ui/lib/fast-segmenter.js';
import fastWidth from '../../src/ui/lib/string-width-fast.js';

function samples(cp: number): string[] {
  const ch = String.fromCodePoint(cp);
  return [ch, `a${ch}b`, `${ch}${ch}`, `\x1b[31m${ch}\x1b[39m`, `${ch}\u0301`, `${ch}\ufe0f`, `${ch}\u200d${ch}`, `${ch}\r\n`];
}

describe('text measuring with fast paths', () => {
  it('widths match string-width', () => {
    const wrong: string[] = [];
    for (let cp = 0x20; cp < 0x2c00; cp++) for (const s of samples(cp)) if (fastWidth(s) !== stringWidth(s)) wrong.push(JSON.stringify(s));
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(fastWidth('╭─❯ ● ⎿ plan ⏸ 日本 👍🏽 e\u0301')).toBe(stringWidth('╭─❯ ● ⎿ plan ⏸ 日本 👍🏽 e\u0301'));
  });

  it('graphemes match Intl.Segmenter; the real one is made only for text that needs it', () => {
    const fast = graphemeSegmenter(undefined, { granularity: 'grapheme' });
    const real = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const cut = (it: Iterable<{ segment: string; index: number }>) => JSON.stringify([...it].map((g) => [g.segment, g.index]));
    const wrong: string[] = [];
    for (let cp = 0; cp < 0x2c00; cp++) for (const s of samples(cp)) if (cut(fast.segment(s)) !== cut(real.segment(s))) wrong.push(JSON.stringify(s));
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(allAlone('│ ❯ wicket · default mode (shift+tab to cycle)')).toBe(true);
    expect(allAlone('e\u0301')).toBe(false);
    expect(allAlone('a\r\nb')).toBe(false);
  });
});
