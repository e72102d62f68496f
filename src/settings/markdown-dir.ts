import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The `.md` files directly in `dir`, sorted by name, with their text; a missing folder or unreadable file is skipped. */
export function markdownFiles(dir: string): Array<{ file: string; text: string }> {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .sort();
  } catch {
    return [];
  }
  const out: Array<{ file: string; text: string }> = [];
  for (const n of names) {
    try {
      out.push({ file: path.join(dir, n), text: readFileSync(path.join(dir, n), 'utf8').replace(/^\uFEFF/, '') });
    } catch {
      // unreadable: skipped
    }
  }
  return out;
}
