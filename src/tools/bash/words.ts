/**
 * Turns tree-sitter word nodes into what bash would pass to a program, as far as that can be known
 * without running anything. Quotes and escapes are resolved (`r''m`, `\rm`, `"rm"` and `$'r\x6d'` all
 * become `rm`); anything only known at run time (expansions, substitutions, globs, brace expansion)
 * becomes a hole.
 *
 * A word's `pattern` is its value with every hole written as HOLE, a character that cannot occur in a
 * command (NUL is refused before parsing). Matching treats a hole as "any text".
 */
import type { Node } from 'web-tree-sitter';

export const HOLE = '\u0000';
const BRACES = /\{[^{}]*(,|\.\.)[^{}]*\}/;

export interface Word {
  /** The text as written in the command. */
  raw: string;
  /** Resolved value when literal; otherwise the raw text (for display only). */
  value: string;
  /** Value with holes for everything not known statically. */
  pattern: string;
  /** No expansion, substitution, glob or brace expansion: `value` is exactly what the program gets. */
  literal: boolean;
  /**
   * When the word's only unknown parts are glob characters: the glob as bash sees it (quoted
   * characters escaped with a backslash), to be expanded against the file system.
   */
  glob?: string;
  /** Stands for each file `find -exec` or `xargs` feeds the command (`{}`, the input). */
  item?: boolean;
}

const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'brace_expression']);

export function literalWord(text: string): Word {
  return { raw: text, value: text, pattern: text, literal: true };
}

/** Resolve one argument node (word, string, concatenation…). */
export function resolveWord(node: Node): Word {
  const parts: Parts = { value: '', pattern: '', literal: true, glob: '' };
  appendNode(node, parts);
  const word: Word = { raw: node.text, value: parts.literal ? parts.value : node.text, pattern: parts.pattern, literal: parts.literal };
  if (!parts.literal && parts.glob !== undefined) word.glob = parts.glob;
  return word;
}

interface Parts {
  value: string;
  pattern: string;
  literal: boolean;
  /** The glob text; undefined once something other than a glob character is unknown. */
  glob: string | undefined;
}

function appendNode(node: Node, out: Parts): void {
  const type = node.type;
  if (EXPANSIONS.has(type)) return hole(out);
  switch (type) {
    case 'word':
      return appendUnquoted(node.text, out);
    case 'number':
    case 'variable_name':
    case 'test_operator':
    case 'file_descriptor':
      return append(node.text, out);
    case 'raw_string':
      return append(node.text.slice(1, -1), out);
    case 'ansi_c_string':
      return append(decodeAnsiC(node.text.slice(2, -1)), out);
    case 'string':
    case 'translated_string':
      return appendDoubleQuoted(node, out);
    case 'concatenation':
      // Brace expansion may span parts: `r{m,}` is `r` `{` `m,` `}` to tree-sitter.
      if (BRACES.test(node.children.map((c) => (c.type === 'word' ? c.text.replace(/\\./g, '_') : '_')).join(''))) return hole(out);
      // Adjacent unquoted parts are read as one text, so that a bracket glob split by tree-sitter
      // (`secre[t]` is `secre` `[` `t` `]`) stays one.
      for (let i = 0; i < node.children.length; i++) {
        const child = node.children[i]!;
        if (child.type !== 'word') {
          appendNode(child, out);
          continue;
        }
        let text = child.text;
        while (node.children[i + 1]?.type === 'word' && node.children[i + 1]!.startIndex === node.children[i]!.endIndex) text += node.children[++i]!.text;
        appendUnquoted(text, out);
      }
      return;
    default:
      return hole(out);
  }
}

function append(text: string, out: Parts): void {
  out.value += text;
  out.pattern += text;
  if (out.glob !== undefined) out.glob += text.replace(/[*?[\]\\]/g, '\\$&');
}

function hole(out: Parts): void {
  out.literal = false;
  out.glob = undefined;
  if (!out.pattern.endsWith(HOLE)) out.pattern += HOLE;
}

/** Unquoted text: backslash escapes, globs and brace expansion. */
function appendUnquoted(text: string, out: Parts): void {
  if (BRACES.test(text.replace(/\\./g, '_'))) return hole(out);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      const next = text[i + 1];
      i++;
      if (next === undefined || next === '\n') continue;
      append(next, out);
    } else if (ch === '*' || ch === '?' || ch === '[') {
      const close = ch === '[' ? text.indexOf(']', i + 2) : -1;
      const expr = close === -1 ? ch : text.slice(i, close + 1);
      out.value += expr;
      const glob = out.glob === undefined ? undefined : out.glob + expr;
      hole(out);
      out.glob = glob;
      i += expr.length - 1;
    } else {
      append(ch, out);
    }
  }
}

function appendDoubleQuoted(node: Node, out: Parts): void {
  for (const child of node.children) {
    if (!child.isNamed) continue; // the quote marks themselves
    if (child.type === 'string_content') append(unescapeDoubleQuoted(child.text), out);
    else appendNode(child, out);
  }
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'` escapes as bash decodes them. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (m, esc: string) => {
    const head = esc[0]!;
    if (head === 'x' || head === 'u' || head === 'U') return safeFromCodePoint(parseInt(esc.slice(1), 16));
    if (/[0-7]/.test(head)) return String.fromCharCode(parseInt(esc, 8) & 0xff);
    if (head === 'c' && esc.length === 2) return String.fromCharCode(esc.charCodeAt(1) & 0x1f);
    return SIMPLE_ESCAPES[esc] ?? m;
  });
}

function safeFromCodePoint(cp: number): string {
  return cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
}

/** Join words into the text rules are matched against (holes kept). */
export function joinPatterns(words: readonly Word[]): string {
  return words.map((w) => w.pattern).join(' ');
}

/** Join words for display: resolved values, holes shown as written. */
export function joinValues(words: readonly Word[]): string {
  return words.map((w) => w.value).join(' ');
}
