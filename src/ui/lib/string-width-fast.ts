/**
 * string-width with a fast path for the characters the app draws all the time (box drawing, ❯, ●,
 * ·, ⎿, arrows, Latin and Cyrillic letters): when every code point is one that never joins another
 * into a cluster (no combining mark, joiner, variation selector, emoji from the astral planes…), the
 * width is the sum of each one's East Asian Width, which is what string-width computes for such
 * text. Anything else goes to string-width itself, whose first call segments with Intl.Segmenter
 * and compiles its emoji expressions (hundreds of milliseconds on a busy machine, before the first
 * frame). The build resolves every `string-width` import of the app (Ink's included) here; only
 * the bundle runs this module (running the sources, Ink and the app use string-width itself).
 */
import { eastAsianWidth } from 'get-east-asian-width';
import stripAnsi from 'strip-ansi';
import type realStringWidthType from 'string-width';

let real: typeof realStringWidthType | undefined;
/**
 * string-width itself, loaded on first need: loading it builds its emoji expressions (\p{RGI_Emoji}),
 * as costly as its first Intl.Segmenter. In the bundle, this require() is esbuild's, which runs the
 * module when first called.
 */
function realStringWidth(input: string, options?: Options): number {
  real ??= (require('string-width') as { default: typeof realStringWidthType }).default;
  return real(input, options);
}

type Options = { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean };

/** Code point ranges with no combining, joining or format characters, and no emoji that a following selector could widen. */
const SIMPLE: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e],
  [0xa0, 0xac],
  [0xae, 0x2ff],
  [0x370, 0x3ff],
  [0x400, 0x482],
  [0x48a, 0x52f],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x2070, 0x20cf],
  [0x2100, 0x2bff],
];

function simple(cp: number): boolean {
  for (const [lo, hi] of SIMPLE) if (cp >= lo && cp <= hi) return true;
  return false;
}

const EAW = { ambiguousAsWide: false };

export default function stringWidth(input: string, options?: Options): number {
  if (typeof input !== 'string' || input.length === 0) return 0;
  if (options && (options.ambiguousIsNarrow === false || options.countAnsiEscapeCodes)) return realStringWidth(input, options);
  const s = input.includes('\x1b') || input.includes('\x9b') ? stripAnsi(input) : input;
  let width = 0;
  for (let i = 0; i < s.length; i++) {
    const cp = s.charCodeAt(i);
    if (cp >= 0x20 && cp <= 0x7e) {
      width++;
      continue;
    }
    if (!simple(cp)) return realStringWidth(s);
    width += eastAsianWidth(cp, EAW);
  }
  return width;
}
