/**
 * The YAML that Markdown frontmatter is written in (agent files), read without a YAML library:
 * block mappings and sequences (`- item`, `- key: value` with more keys under it), flow
 * collections (`[a, "b"]`, `{type: stdio}`), quoted and plain scalars, block scalars (`|`, `>`),
 * comments. Plain scalars are read leniently, as people write them: `description: Use it when: x`
 * keeps the whole line. It never throws: a line it cannot read becomes a problem, naming its line,
 * and is skipped.
 */

export interface YamlResult {
  data: Record<string, unknown>;
  /** `line 3: …`, one per line that could not be read. */
  problems: string[];
}

interface Line {
  /** 1-based, in the frontmatter block. */
  no: number;
  indent: number;
  /** The text after the indentation, comments removed. */
  text: string;
}

export function parseYamlBlock(block: string): YamlResult {
  const raw = block.split(/\r?\n/);
  const p = new Parser(raw);
  const data = p.document();
  return { data, problems: p.problems };
}

class Parser {
  readonly problems: string[] = [];
  private pos = 0;
  private readonly lines: Array<Line | undefined>;

  constructor(private readonly raw: string[]) {
    this.lines = raw.map((text, i) => lineOf(text, i + 1));
  }

  document(): Record<string, unknown> {
    this.skipBlank();
    const first = this.peek();
    if (!first) return {};
    const value = this.block(first.indent);
    if (!isMap(value)) {
      this.problem(first.no, 'the frontmatter must be a set of "key: value" lines');
      return {};
    }
    for (let l = this.peek(); l; l = this.peek()) {
      this.problem(l.no, 'unexpected indentation; line ignored');
      this.pos++;
      this.skipBlank();
    }
    return value;
  }

  private peek(): Line | undefined {
    return this.lines[this.pos];
  }

  private skipBlank(): void {
    while (this.pos < this.lines.length && !this.lines[this.pos]) this.pos++;
  }

  private problem(no: number, what: string): void {
    this.problems.push(`line ${no}: ${what}`);
  }

  /** A mapping or a sequence whose lines start at `indent`. */
  private block(indent: number): unknown {
    const first = this.peek()!;
    return isSeqItem(first.text) ? this.sequence(indent) : this.mapping(indent);
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let l = this.peek(); l && l.indent === indent; l = this.peek()) {
      this.pos++;
      const kv = splitKey(l.text);
      if (!kv) {
        this.problem(l.no, `expected "key: value", found ${JSON.stringify(l.text.slice(0, 40))}; line ignored`);
        this.skipDeeper(indent);
        continue;
      }
      const value = this.value(kv.rest, l, indent);
      if (value !== undefined) out[kv.key] = value;
      this.skipBlank();
    }
    return out;
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (let l = this.peek(); l && l.indent === indent && isSeqItem(l.text); l = this.peek()) {
      const rest = l.text.slice(1).replace(/^ +/, '');
      if (rest === '') {
        this.pos++;
        this.skipBlank();
        const next = this.peek();
        out.push(next && next.indent > indent ? this.block(next.indent) : null);
      } else if (isSeqItem(rest) || (splitKey(rest) && !/^[[{]/.test(rest))) {
        // `- key: value` (more keys under it), or `- - nested`: a block starting on this line, at the item's column.
        const inner: Line = { no: l.no, indent: indent + l.text.length - rest.length, text: rest };
        this.lines[this.pos] = inner;
        out.push(this.block(inner.indent));
      } else {
        this.pos++;
        const value = this.value(rest, l, indent);
        if (value !== undefined) out.push(value);
      }
      this.skipBlank();
    }
    return out;
  }

  /** The value after `key:` (or `- `) on line `l`, whose key sits at `indent`; undefined when unreadable. */
  private value(rest: string, l: Line, indent: number): unknown {
    if (rest === '') {
      this.skipBlank();
      const next = this.peek();
      // A nested block, or a list at the key's own column (`key:` then `- a`).
      if (next && (next.indent > indent || (next.indent === indent && isSeqItem(next.text)))) return this.block(next.indent);
      return null;
    }
    if (/^[|>][+-]?\d*$/.test(rest)) return this.blockScalar(rest, indent);
    if (rest.startsWith('[') || rest.startsWith('{')) return this.flow(rest, l);
    if (rest.startsWith('"') || rest.startsWith("'")) {
      const q = quoted(rest);
      if (!q) this.problem(l.no, 'the quote is not closed; the value is taken as written');
      else if (q.end !== rest.length) this.problem(l.no, 'text after the closing quote is ignored');
      return q ? q.value : rest;
    }
    return typedScalar(this.folded(rest, indent));
  }

  /** A plain scalar, with the more-indented lines that continue it folded in. */
  private folded(first: string, indent: number): string {
    const parts = [first];
    for (let l = this.peek(); l && l.indent > indent; l = this.peek()) {
      parts.push(l.text);
      this.pos++;
    }
    return parts.join(' ');
  }

  private blockScalar(header: string, indent: number): string {
    const lines: string[] = [];
    let body = -1;
    while (this.pos < this.raw.length) {
      const text = this.raw[this.pos]!;
      const lead = text.length - text.trimStart().length;
      if (text.trim() !== '' && lead <= indent) break;
      if (text.trim() !== '' && body < 0) body = lead;
      lines.push(text.trim() === '' ? '' : text.slice(Math.max(0, body)));
      this.pos++;
    }
    while (lines.length && lines[lines.length - 1] === '') lines.pop();
    const text = header.startsWith('>') ? foldLines(lines) : lines.join('\n');
    return header.includes('-') ? text : `${text}\n`;
  }

  /** A flow collection, which may go on over the following lines until its brackets close. */
  private flow(first: string, l: Line): unknown {
    let text = first;
    const start = this.pos;
    while (!balanced(text) && this.pos < this.raw.length) text += ` ${(this.lines[this.pos++]?.text ?? '').trim()}`;
    const r = parseFlow(text, 0);
    if (!r || r.end !== text.length) {
      // The lines after it are read on their own.
      this.pos = start;
      this.problem(l.no, `cannot read ${JSON.stringify(first.slice(0, 60))} (a [list] or {map} that does not close); value ignored`);
      return undefined;
    }
    return r.value;
  }

  /** After an unreadable line, the lines under it go too. */
  private skipDeeper(indent: number): void {
    for (let l = this.peek(); l && l.indent > indent; l = this.peek()) this.pos++;
    this.skipBlank();
  }
}

function lineOf(text: string, no: number): Line | undefined {
  const stripped = stripComment(text);
  if (stripped.trim() === '') return undefined;
  const indent = stripped.length - stripped.trimStart().length;
  return { no, indent, text: stripped.trim() };
}

/** `# comment` at the start or after a space, outside quotes. */
function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s:[{,-]/.test(text[i - 1]!))) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i);
  }
  return text;
}

function isSeqItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** `key: rest` (key plain or quoted); undefined when the line is not a mapping entry. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  if (text.startsWith('"') || text.startsWith("'")) {
    const q = quoted(text);
    const after = q ? text.slice(q.end) : '';
    if (!q || !/^:(\s|$)/.test(after)) return undefined;
    return { key: q.value, rest: after.slice(1).trim() };
  }
  const m = /^([^\s:[\]{},#][^:]*?)\s*:(?:\s+(.*)|$)/.exec(text);
  return m ? { key: m[1]!, rest: (m[2] ?? '').trim() } : undefined;
}

function quoted(text: string, from = 0): { value: string; end: number } | undefined {
  const q = text[from];
  let out = '';
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i]!;
    if (q === "'" && c === "'") {
      if (text[i + 1] === "'") {
        out += "'";
        i++;
        continue;
      }
      return { value: out, end: i + 1 };
    }
    if (q === '"' && c === '\\') {
      const next = text[++i] ?? '';
      out += ESCAPES[next] ?? next;
      continue;
    }
    if (q === '"' && c === '"') return { value: out, end: i + 1 };
    out += c;
  }
  return undefined;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/', '0': '\0' };

function typedScalar(s: string): unknown {
  if (/^(true|True|TRUE)$/.test(s)) return true;
  if (/^(false|False|FALSE)$/.test(s)) return false;
  if (/^(null|Null|NULL|~)$/.test(s)) return null;
  if (/^[-+]?\d+(\.\d+)?$/.test(s)) return Number(s);
  return s;
}

function foldLines(lines: string[]): string {
  let out = '';
  lines.forEach((l, i) => {
    if (i === 0) out = l;
    else if (l === '' || lines[i - 1] === '') out += `\n${l}`;
    else out += ` ${l}`;
  });
  return out;
}

function balanced(text: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
  }
  return depth <= 0;
}

type Flow = { value: unknown; end: number } | undefined;

/** A flow collection or scalar starting at `i` (spaces skipped). */
function parseFlow(text: string, i: number): Flow {
  while (text[i] === ' ') i++;
  const c = text[i];
  if (c === '[') return flowSeq(text, i + 1);
  if (c === '{') return flowMap(text, i + 1);
  if (c === '"' || c === "'") return quoted(text, i);
  // A plain scalar ends at a `,`, `]` or `}` outside parentheses (`Bash(git diff:*)` stays whole).
  let depth = 0;
  let j = i;
  for (; j < text.length; j++) {
    const ch = text[j]!;
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (ch === ',' || ch === ']' || ch === '}' || (ch === ':' && /\s/.test(text[j + 1] ?? '')))) break;
  }
  return { value: typedScalar(text.slice(i, j).trim()), end: j };
}

function flowSeq(text: string, i: number): Flow {
  const out: unknown[] = [];
  for (;;) {
    while (text[i] === ' ') i++;
    if (text[i] === ']') return { value: out, end: i + 1 };
    const item = parseFlow(text, i);
    if (!item) return undefined;
    out.push(item.value);
    i = skipSpaces(text, item.end);
    if (text[i] === ',') i++;
    else if (text[i] !== ']') return undefined;
  }
}

function flowMap(text: string, i: number): Flow {
  const out: Record<string, unknown> = {};
  for (;;) {
    i = skipSpaces(text, i);
    if (text[i] === '}') return { value: out, end: i + 1 };
    const key = parseFlow(text, i);
    if (!key) return undefined;
    i = skipSpaces(text, key.end);
    let value: unknown = null;
    if (text[i] === ':') {
      const v = parseFlow(text, i + 1);
      if (!v) return undefined;
      value = v.value;
      i = skipSpaces(text, v.end);
    }
    out[String(key.value)] = value;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') return undefined;
  }
}

function skipSpaces(text: string, i: number): number {
  while (text[i] === ' ') i++;
  return i;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
