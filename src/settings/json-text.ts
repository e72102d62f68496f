/**
 * JSON and JSONC text, read with jsonc-parser (the parser VS Code uses for its own settings files):
 * the value, the first problem with its line and column in words a person can act on, and where any
 * key path sits in the text, so that problems found after parsing (a wrong type) can be placed too.
 */
import type { Node, ParseError } from 'jsonc-parser';
import { jsoncLib } from './jsonc-lib.js';

export type JsonPath = Array<string | number>;

export interface TextPosition {
  line: number;
  column: number;
}

export interface JsonTextProblem extends TextPosition {
  message: string;
}

export interface JsonText {
  /** Undefined when the text holds no value (empty, or only whitespace and comments). */
  value: unknown;
  /** The first syntax problem; the value is then not to be used. */
  problem?: JsonTextProblem;
  /** Where the value at `path` starts (or the nearest enclosing value that exists). */
  at(path: JsonPath): TextPosition;
  /** A key written twice in one object (the reader would otherwise keep the last silently). */
  duplicateKey(): JsonTextProblem | undefined;
}

export interface JsonTextOptions {
  /** Comments and trailing commas allowed (JSONC, as editors write settings files). */
  jsonc: boolean;
}

/** Reads `text` (without a byte order mark). Never throws. */
export function readJsonText(text: string, opts: JsonTextOptions): JsonText {
  // Plain JSON (most files, and Claude Code's ~/.claude.json, which grows to hundreds of kilobytes)
  // goes through V8's parser, many times faster than building a syntax tree; the tree is built only
  // when a position or a repeated key is asked for. JSONC, and JSON with a problem, take the tree.
  const plain = strictJson(text);
  if (plain) return lazyTree(text, opts, plain.value);
  const { root, errors } = treeOf(text, opts);
  const position = positionsIn(text);
  const first = errors[0];
  return {
    value: root && !first ? jsoncLib().getNodeValue(root) : undefined,
    ...(first ? { problem: { ...position(first.offset), message: describeError(text, first) } } : {}),
    at: (path) => placeIn(root, path, position),
    duplicateKey: () => (root ? findDuplicateKey(root, position) : undefined),
  };
}

function strictJson(text: string): { value: unknown } | undefined {
  // A `__proto__` key reads differently (JSON.parse makes it a plain key, the tree does not): such
  // text keeps the tree's reading.
  if (text.includes('__proto__')) return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function lazyTree(text: string, opts: JsonTextOptions, value: unknown): JsonText {
  let tree: Node | undefined;
  const root = () => (tree ??= treeOf(text, opts).root);
  const position = positionsIn(text);
  return {
    value,
    at: (path) => placeIn(root(), path, position),
    duplicateKey: () => {
      // As many keys written as the value holds: none is written twice, and no tree is needed.
      if (keysWritten(text) === keysHeld(value)) return undefined;
      const r = root();
      return r ? findDuplicateKey(r, position) : undefined;
    },
  };
}

/** The keys written in strict JSON text: each string followed by a colon (a colon stands nowhere else outside strings). */
function keysWritten(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/"(?:[^"\\]|\\.)*"\s*(:)?/g)) if (m[1]) n++;
  return n;
}

/** The keys of every object in a parsed value. */
function keysHeld(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + keysHeld(v), 0);
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  for (const v of Object.values(value)) n += 1 + keysHeld(v);
  return n;
}

function treeOf(text: string, opts: JsonTextOptions): { root: Node | undefined; errors: ParseError[] } {
  const errors: ParseError[] = [];
  const root = jsoncLib().parseTree(text, errors, { allowTrailingComma: opts.jsonc, disallowComments: !opts.jsonc, allowEmptyContent: true });
  return { root, errors };
}

function placeIn(root: Node | undefined, path: JsonPath, position: (offset: number) => TextPosition): TextPosition {
  if (!root) return position(0);
  for (let n = path.length; n >= 0; n--) {
    const node = jsoncLib().findNodeAtLocation(root, path.slice(0, n));
    if (node) return position(node.offset);
  }
  return position(root.offset);
}

function positionsIn(text: string): (offset: number) => TextPosition {
  let starts: number[] | undefined;
  return (offset) => {
    starts ??= lineStarts(text);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function findDuplicateKey(node: Node, position: (offset: number) => TextPosition): JsonTextProblem | undefined {
  if (node.type === 'object') {
    const seen = new Map<string, number>();
    for (const prop of node.children ?? []) {
      const key = prop.children?.[0];
      if (!key || typeof key.value !== 'string') continue;
      const earlier = seen.get(key.value);
      if (earlier !== undefined) {
        const first = position(earlier);
        return {
          ...position(key.offset),
          message: `the key ${JSON.stringify(key.value)} is written twice in the same object (first at line ${first.line}, column ${first.column}); only one would count`,
        };
      }
      seen.set(key.value, key.offset);
    }
  }
  for (const child of node.children ?? []) {
    const found = findDuplicateKey(child, position);
    if (found) return found;
  }
  return undefined;
}

/** What stands at `offset`, quoted, for a message. */
function found(text: string, offset: number, length: number): string {
  if (offset >= text.length) return 'the end of the file';
  const token = text.slice(offset, offset + Math.max(length, 1));
  const shown = token.length > 20 ? `${token.slice(0, 17)}...` : token;
  return shown.startsWith('"') ? shown : JSON.stringify(shown);
}

function previousSignificant(text: string, offset: number): string | undefined {
  for (let i = offset - 1; i >= 0; i--) if (!/\s/.test(text[i]!)) return text[i];
  return undefined;
}

const WORDS: Record<string, (what: string) => string> = {
  InvalidSymbol: (what) => `unexpected ${what}`,
  InvalidNumberFormat: (what) => `invalid number ${what}`,
  PropertyNameExpected: (what) => `expected a double-quoted property name, found ${what}`,
  ValueExpected: (what) => `expected a value, found ${what}`,
  ColonExpected: (what) => `expected ":" after the property name, found ${what}`,
  CommaExpected: (what) => `expected "," before ${what} (a comma is missing)`,
  CloseBraceExpected: (what) => `expected "}" to close the object, found ${what}`,
  CloseBracketExpected: (what) => `expected "]" to close the list, found ${what}`,
  EndOfFileExpected: (what) => `unexpected ${what} after the end of the JSON value`,
  InvalidCommentToken: () => 'comments are not allowed in JSON',
  UnexpectedEndOfComment: () => 'a /* comment is never closed with */',
  UnexpectedEndOfString: () => 'unterminated string: the closing double quote is missing (or a raw line break is inside the string)',
  UnexpectedEndOfNumber: () => 'incomplete number',
  InvalidUnicode: () => 'invalid \\u escape in a string (it takes four hex digits)',
  InvalidEscapeCharacter: () => 'invalid escape sequence in a string (write \\\\ for a backslash)',
  InvalidCharacter: () => 'a control character (a tab or a line break) inside a string: write it as \\t or \\n',
};

function describeError(text: string, e: ParseError): string {
  const code = jsoncLib().printParseErrorCode(e.error);
  const at = text[e.offset];
  if ((code === 'PropertyNameExpected' || code === 'ValueExpected') && (at === '}' || at === ']') && previousSignificant(text, e.offset) === ',') {
    return `trailing comma before "${at}"`;
  }
  if (code === 'InvalidSymbol' && at === "'") return 'strings and property names must use double quotes';
  const words = WORDS[code];
  return words ? words(found(text, e.offset, e.length)) : `invalid JSON (${code})`;
}
