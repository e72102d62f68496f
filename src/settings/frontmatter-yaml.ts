/**
 * The YAML of Markdown frontmatter (agent files), read with the `yaml` package. Two allowances for
 * how people write frontmatter, as Claude Code reads it: a plain value may hold ": "
 * (`description: Use it when: x`), and a broken entry costs only itself: when the block is not valid
 * YAML, each top-level key is read on its own, and one that still cannot be read becomes a problem
 * naming its line. Never throws.
 */
import { yamlLib } from './yaml-lib.js';

export interface YamlResult {
  data: Record<string, unknown>;
  /** `line 3: …`, one per entry that could not be read. */
  problems: string[];
}

export function parseYamlBlock(block: string): YamlResult {
  if (!block.trim()) return { data: {}, problems: [] };
  const whole = readDoc(block, 0);
  if (!whole.problems.length) return whole;
  const data: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const entry of topLevelEntries(block)) {
    let r = readDoc(entry.text, entry.line);
    if (r.problems.length) {
      const relaxed = quotePlainValue(entry.text);
      if (relaxed) {
        const again = readDoc(relaxed, entry.line);
        if (!again.problems.length) r = again;
      }
    }
    problems.push(...r.problems);
    if (!r.problems.length) Object.assign(data, r.data);
  }
  return { data, problems };
}

/** One document's data; `offset` is the block line the text starts after. */
function readDoc(text: string, offset: number): YamlResult {
  const doc = yamlLib().parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    return {
      data: {},
      problems: [`line ${offset + (e.linePos?.[0].line ?? 1)}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}; ignored`],
    };
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    return { data: {}, problems: [`line ${offset + 1}: ${(err as Error).message}; ignored`] };
  }
  if (value === null || value === undefined) return { data: {}, problems: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    const first = text.split(/\r?\n/)[0]!.trim();
    const problem =
      offset === 0 && Array.isArray(value)
        ? 'the frontmatter must be a set of "key: value" lines'
        : `expected "key: value", found ${JSON.stringify(first)}; line ignored`;
    return { data: {}, problems: [`line ${offset + 1}: ${problem}`] };
  }
  return { data: value as Record<string, unknown>, problems: [] };
}

/** Each top-level key with the lines under it (indented lines, `- item` lines, comments and blanks). */
function topLevelEntries(block: string): Array<{ line: number; text: string }> {
  const entries: Array<{ line: number; lines: string[] }> = [];
  block.split(/\r?\n/).forEach((line, i) => {
    const startsEntry = /^[^\s#-]/.test(line) || /^-[^\s]/.test(line);
    if (startsEntry || !entries.length) entries.push({ line: i, lines: [line] });
    else entries.at(-1)!.lines.push(line);
  });
  return entries.map((e) => ({ line: e.line, text: e.lines.join('\n') }));
}

/** `key: plain value: with colons` (and the lines that continue it) as `key: "…"`; undefined when the entry is not one. */
function quotePlainValue(entry: string): string | undefined {
  const [first, ...rest] = entry.split(/\r?\n/);
  const m = /^([\w-]+):[ \t]+([^\s"'[{|>&*!%@`#].*)$/.exec(first!);
  if (!m || rest.some((l) => /^\s*-\s|^\s*[\w-]+:(\s|$)/.test(l))) return undefined;
  const words = [m[2]!.trim(), ...rest.map((l) => l.trim()).filter(Boolean)].join(' ');
  return `${m[1]}: ${JSON.stringify(words)}`;
}
