/**
 * The code points the app's fast text paths handle themselves (string-width-fast.ts measures text
 * made only of them, fast-segmenter.ts cuts it): none joins a neighbour into one grapheme or changes
 * its width (no combining mark, joiner, format character or variation selector, no emoji a following
 * selector could widen). Each keeps its own loop over the table: one function serving both
 * measured slower on the segmenter's path.
 */
export type CodePointRanges = ReadonlyArray<readonly [number, number]>;

/** Printable Latin, Greek and Cyrillic, punctuation, arrows, box drawing and symbols up to U+2BFF. */
export const STANDALONE: CodePointRanges = [
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
