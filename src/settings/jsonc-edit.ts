/**
 * Writes a change to a settings object back into its JSONC text as edits (jsonc-parser's `modify`),
 * so the comments, the order and the layout the person wrote survive: only the values that changed
 * are rewritten, and entries added at the end of a list are inserted there.
 */
import type { FormattingOptions } from 'jsonc-parser';
import { jsoncLib } from './jsonc-lib.js';
import type { JsonPath } from './json-text.js';

/** `text` with `before` changed into `after` (both the parsed top-level object of `text`). */
export function editJsonc(text: string, before: Record<string, unknown>, after: Record<string, unknown>, indent: string | number): string {
  const formattingOptions: FormattingOptions = {
    insertSpaces: indent !== '\t',
    tabSize: typeof indent === 'number' ? indent : indent === '\t' ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  let out = text;
  const set = (path: JsonPath, value: unknown, isArrayInsertion = false) => {
    out = jsoncLib().applyEdits(out, jsoncLib().modify(out, path, value, { formattingOptions, isArrayInsertion }));
  };
  const walk = (was: Record<string, unknown>, now: Record<string, unknown>, at: JsonPath) => {
    for (const key of Object.keys(was)) if (!(key in now)) set([...at, key], undefined);
    for (const [key, value] of Object.entries(now)) {
      const old = was[key];
      if (same(old, value)) continue;
      if (isRecord(old) && isRecord(value)) walk(old, value, [...at, key]);
      else if (Array.isArray(old) && Array.isArray(value) && old.every((x, i) => same(x, value[i]))) {
        for (let i = old.length; i < value.length; i++) set([...at, key, i], value[i], true);
      } else set([...at, key], value);
    }
  };
  walk(before, after, []);
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
