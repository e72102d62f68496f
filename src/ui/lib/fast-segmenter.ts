/**
 * An Intl.Segmenter (graphemes) that creates the real one only when it meets text that needs it.
 * The first Intl.Segmenter of a process loads ICU's break-iteration data (tens of milliseconds, more
 * on a busy machine), and Ink segments every line it draws. Text made only of code points that each
 * stand alone as a grapheme (printable Latin, Greek, Cyrillic, punctuation, arrows, box drawing,
 * controls but CR) is cut into code points here, as Intl.Segmenter would cut it. The build puts this
 * in place of `new Intl.Segmenter(…)` in Ink's text libraries (build-app.mjs).
 */
import { type CodePointRanges, STANDALONE } from './standalone-code-points.js';

interface Segment {
  segment: string;
  index: number;
  input: string;
}

/** Code points that are a grapheme alone: the printable ones the fast paths share, and the controls but CR. */
const ALONE: CodePointRanges = [[0x00, 0x0c], [0x0e, 0x1f], [0x7f, 0x9f], ...STANDALONE];

function alone(cp: number): boolean {
  if (cp >= 0x20 && cp <= 0x7e) return true;
  for (const [lo, hi] of ALONE) if (cp >= lo && cp <= hi) return true;
  return false;
}

/** Whether every code unit of `s` is a grapheme by itself. */
export function allAlone(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!alone(s.charCodeAt(i))) return false;
  return true;
}

function* units(input: string): Generator<Segment> {
  for (let index = 0; index < input.length; index++) yield { segment: input[index]!, index, input };
}

/** What `segment` gives, as Intl.Segmenter's Segments: iterable, and `containing(index)` (slice-ansi asks it). */
interface Segments extends Iterable<Segment> {
  containing(index?: number): Segment | undefined;
}

function unitSegments(input: string): Segments {
  return {
    [Symbol.iterator]: () => units(input),
    containing(index = 0) {
      const i = Math.trunc(index);
      return i >= 0 && i < input.length ? { segment: input[i]!, index: i, input } : undefined;
    },
  };
}

export function graphemeSegmenter(locales?: string | string[], options?: Intl.SegmenterOptions): { segment(input: string): Segments } {
  let real: Intl.Segmenter | undefined;
  return {
    segment(input: string): Segments {
      if (allAlone(input)) return unitSegments(input);
      real ??= new Intl.Segmenter(locales, options);
      return real.segment(input);
    },
  };
}
