/** Small helpers shared by the routes (routes.ts, routes-programs.ts, interpreters.ts). */
import type { Frame, Walk } from './analysis.js';
import { HOLE, type Word } from './words.js';

/**
 * How one program turns its arguments (or its input) into commands. `frame` is the command's own,
 * `inner` the frame for what it runs (the wrapper's words added to what deny rules see).
 */
export type Route = (w: Walk, words: Word[], frame: Frame, inner: Frame, views: string[]) => void;

/** A word standing for part of another (an option's attached value). */
export function partOf(w: Word, value: string): Word {
  return { raw: w.raw, value, pattern: w.literal ? value : w.pattern, literal: w.literal };
}

/**
 * Values of the options `shorts` (letters) and `longs`: `-c X`, `-qcX`, `-qc X`, `--command X`,
 * `--command=X`. Reads every word up to `--` (a superset is fine: values are only ever parsed as
 * code, which can add deny matches and problems, never remove them).
 */
export function optionValues(words: readonly Word[], shorts: string, longs: readonly string[], from = 1): Word[] {
  const out: Word[] = [];
  for (let i = from; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    if (v === '--') break;
    const long = longs.find((l) => v === l || v.startsWith(`${l}=`));
    if (long !== undefined) {
      const value = v === long ? words[i + 1] : partOf(w, v.slice(long.length + 1));
      if (value) out.push(value);
      continue;
    }
    if (v.startsWith('--')) continue;
    if (!v.startsWith('-') || v.length < 2) continue;
    for (let j = 1; j < v.length && /[A-Za-z0-9]/.test(v[j]!); j++) {
      if (!shorts.includes(v[j]!)) continue;
      const rest = v.slice(j + 1);
      const value = rest ? partOf(w, rest) : words[i + 1];
      if (value) out.push(value);
      break;
    }
  }
  return out;
}

/** Words with `token` (find's `{}`, xargs' replacement) turned into a hole. */
export function withHoles(words: readonly Word[], token: string): Word[] {
  return words.map((x) =>
    x.pattern.includes(token) ? { raw: x.raw, value: x.value, literal: false, pattern: x.pattern.split(token).join(HOLE), item: true } : x,
  );
}

/** Positional arguments (not options), up to `--` included after it. */
export function positionalWords(words: readonly Word[], from = 1): Word[] {
  const out: Word[] = [];
  let after = false;
  for (let i = from; i < words.length; i++) {
    const w = words[i]!;
    if (!after && w.value === '--') after = true;
    else if (after || !w.value.startsWith('-') || w.value === '-') out.push(w);
  }
  return out;
}

/** A guess frame: only deny and ask rules see what runs in it. */
export function guessFrame(inner: Frame): Frame {
  return { ...inner, allow: false, denyOnly: true };
}
