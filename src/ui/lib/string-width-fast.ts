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
import { STANDALONE } from './standalone-code-points.js';

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

function standalone(cp: number): boolean {
  for (const [lo, hi] of STANDALONE) if (cp >= lo && cp <= hi) return true;
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
    if (!standalone(cp)) return realStringWidth(s);
    width += eastAsianWidth(cp, EAW);
  }
  return width;
}
