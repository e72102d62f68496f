/**
 * A small lexer for one-liners in other languages (Python, Perl, Ruby, JavaScript, PHP, Lua, awk,
 * R, AppleScript): it finds the string literals (with their values when they hold no
 * interpolation) and the command literals (backticks, `qx{}`, `%x()`), and gives the code with
 * every literal blanked out, so that names are only looked for in code.
 */

export interface Literal {
  start: number;
  end: number;
  /** The string's value; undefined when it interpolates (`"$x"`, f-strings, `${…}`, `#{…}`). */
  value: string | undefined;
  /** A command literal: its text runs in a shell. */
  command: boolean;
}

export interface Lexed {
  /** The code with each literal's content replaced by spaces (its quotes kept). */
  masked: string;
  literals: Literal[];
}

export interface LexRules {
  /** Quote characters for strings. */
  quotes: string;
  /** Quote characters whose content runs as a command (`` ` `` in Perl, Ruby, PHP). */
  commandQuotes?: string;
  lineComment?: string;
  /** Python's `'''`/`"""` and its r/b/u/f prefixes. */
  python?: boolean;
  /** Perl's q() qq() qw() qx(); Ruby's %q() %Q() %w() %x(). */
  quoteOperators?: 'perl' | 'ruby';
  /** Does a string with this quote and raw content interpolate? */
  interpolates: (quote: string, raw: string, prefix: string) => boolean;
}

const PAIRS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

export function lex(text: string, rules: LexRules): Lexed {
  const literals: Literal[] = [];
  let masked = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (rules.lineComment && text.startsWith(rules.lineComment, i)) {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      masked += ' '.repeat(stop - i);
      i = stop;
      continue;
    }
    const op = rules.quoteOperators ? quoteOperator(text, i, rules.quoteOperators) : undefined;
    if (op) {
      const body = delimited(text, op.open, op.bodyStart);
      const raw = text.slice(op.bodyStart, body.end);
      const value = op.interpolates && /[$@#]/.test(raw) ? undefined : op.words ? raw.trim().split(/\s+/).join(' ') : raw;
      literals.push({ start: i, end: body.after, value, command: op.command });
      masked += `${text.slice(i, op.bodyStart)}${' '.repeat(raw.length)}${text.slice(body.end, body.after)}`;
      i = body.after;
      continue;
    }
    const prefix = rules.python ? pythonPrefix(text, i) : '';
    const quoteAt = i + prefix.length;
    const q = text[quoteAt];
    const quoteChars = prefix ? rules.quotes : rules.quotes + (rules.commandQuotes ?? '');
    if (q === undefined || !quoteChars.includes(q)) {
      masked += c;
      i++;
      continue;
    }
    const triple = rules.python && text.startsWith(q.repeat(3), quoteAt);
    const close = triple ? q.repeat(3) : q;
    const start = quoteAt + close.length;
    const raw = /r/i.test(prefix) ? rawUntil(text, start, close) : escapedUntil(text, start, close);
    const command = (rules.commandQuotes ?? '').includes(q);
    const interpolates = rules.interpolates(q, raw.text, prefix.toLowerCase());
    literals.push({ start: i, end: raw.after, value: interpolates ? undefined : unescape(raw.text, /r/i.test(prefix)), command });
    masked += `${text.slice(i, start)}${' '.repeat(raw.text.length)}${text.slice(raw.after - (raw.closed ? close.length : 0), raw.after)}`;
    i = raw.after;
  }
  return { masked, literals };
}

/** Python's string prefixes (`r'…'`, `f"…"`, `rb'…'`), not the end of a name. */
function pythonPrefix(text: string, i: number): string {
  if (i > 0 && /\w/.test(text[i - 1]!)) return '';
  const m = /^[rRbBuUfF]{1,2}(?=['"])/.exec(text.slice(i, i + 3));
  return m ? m[0] : '';
}

function escapedUntil(text: string, start: number, close: string): { text: string; after: number; closed: boolean } {
  for (let j = start; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text.startsWith(close, j)) return { text: text.slice(start, j), after: j + close.length, closed: true };
  }
  return { text: text.slice(start), after: text.length, closed: false };
}

function rawUntil(text: string, start: number, close: string): { text: string; after: number; closed: boolean } {
  const j = text.indexOf(close, start);
  return j === -1 ? { text: text.slice(start), after: text.length, closed: false } : { text: text.slice(start, j), after: j + close.length, closed: true };
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', "'": "'", '"': '"', '`': '`', $: '$' };

function unescape(raw: string, isRaw: boolean): string {
  if (isRaw) return raw;
  return raw.replace(/\\(.)/gs, (_m, c: string) => ESCAPES[c] ?? `\\${c}`);
}

interface QuoteOp {
  open: string;
  bodyStart: number;
  command: boolean;
  words: boolean;
  interpolates: boolean;
}

/** `q(…)`, `qq{…}`, `qw/…/`, `qx(…)` (Perl); `%q(…)`, `%Q[…]`, `%w(…)`, `%x(…)`, `%(…)` (Ruby). */
function quoteOperator(text: string, i: number, kind: 'perl' | 'ruby'): QuoteOp | undefined {
  if (i > 0 && /[\w$@%&]/.test(text[i - 1]!)) return undefined;
  const m = kind === 'perl' ? /^(qq|qw|qx|q)\s*([^\w\s])/.exec(text.slice(i, i + 8)) : /^%([qQwWxiI]?)([^\w\s=])/.exec(text.slice(i, i + 4));
  if (!m) return undefined;
  const letter = m[1]!;
  const open = m[2]!;
  return {
    open,
    bodyStart: i + m[0].length,
    command: letter === 'qx' || letter === 'x',
    words: letter === 'qw' || letter === 'w' || letter === 'W',
    interpolates: ['qq', 'qx', 'Q', '', 'x', 'W', 'I'].includes(letter),
  };
}

function delimited(text: string, open: string, start: number): { end: number; after: number } {
  const close = PAIRS[open] ?? open;
  let depth = 0;
  for (let j = start; j < text.length; j++) {
    const c = text[j]!;
    if (c === '\\') j++;
    else if (c === open && close !== open) depth++;
    else if (c === close) {
      if (depth === 0) return { end: j, after: j + 1 };
      depth--;
    }
  }
  return { end: text.length, after: text.length };
}

/**
 * The literals that follow `at` as a call's arguments: `(`? item (`,` item)* `)`?, an item being a
 * literal or a list `[…]`/`(…)` of literals. Returns the values and where the arguments end;
 * undefined when an argument is not a plain literal (Python's keyword arguments may follow, but not
 * `executable=` or `preexec_fn=`).
 */
export function literalArguments(lexed: Lexed, at: number, options: { keywordArgs?: boolean } = {}): { values: string[]; end: number } | undefined {
  const { masked } = lexed;
  const byStart = new Map(lexed.literals.map((l) => [l.start, l]));
  const values: string[] = [];
  let i = skipSpace(masked, at);
  const paren = masked[i] === '(';
  if (paren) i = skipSpace(masked, i + 1);
  const literal = (): boolean => {
    const lit = byStart.get(i);
    if (!lit || lit.value === undefined || lit.command) return false;
    values.push(lit.value);
    i = skipSpace(masked, lit.end);
    return true;
  };
  const item = (): boolean => {
    const open = masked[i];
    if (open !== '[' && open !== '(') return literal();
    const close = open === '[' ? ']' : ')';
    i = skipSpace(masked, i + 1);
    while (masked[i] !== close) {
      if (!literal()) return false;
      if (masked[i] === ',') i = skipSpace(masked, i + 1);
      else if (masked[i] !== close) return false;
    }
    i = skipSpace(masked, i + 1);
    return true;
  };
  if (!item()) return undefined;
  while (masked[i] === ',') {
    const comma = i;
    i = skipSpace(masked, i + 1);
    if (paren && masked[i] === ')') break;
    if (item()) continue;
    if (!(paren && options.keywordArgs)) return undefined;
    const close = masked.indexOf(')', comma);
    if (close === -1 || /[()[\]]|executable|preexec_fn/.test(masked.slice(comma, close))) return undefined;
    i = close;
    break;
  }
  if (paren) {
    if (masked[i] !== ')') return undefined;
    i++;
  }
  return { values, end: i };
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && /\s/.test(s[i]!)) i++;
  return i;
}
