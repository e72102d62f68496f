/**
 * The Markdown of an instruction file, read as Claude Code reads it: the front matter (a rule's
 * `paths:`) taken off, HTML comment blocks left out, and the `@path` imports found outside code
 * spans and fenced blocks. A file with no `<!--` and no `@` word that could name a path is never lexed.
 */
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Token, Tokens } from 'marked';
import { yamlLib } from '../../settings/yaml-lib.js';
import { markedLib } from './marked-lib.js';
import { pathPatterns } from './paths-globs.js';

/** Front matter as Claude Code finds it: `---`, anything, `---` at the very start. */
const FRONT_MATTER = /^---\s*\n([\s\S]*?)---\s*\n?/;
const COMMENT = /<!--[\s\S]*?-->/g;
/** `@path` after the start of a text or a space; `\ ` keeps a space in the path. */
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;
/** The word after every `@`, wherever it stands. */
const ANY_AT = /@(?=((?:[^\s\\]|\\ )+))/g;

/** The text after the front matter, and the `paths:` patterns (undefined: the file applies everywhere). */
export function splitFrontMatter(text: string): { content: string; globs?: string[] } {
  const bare = text.replace(/^\uFEFF/, '');
  const m = bare.indexOf('---', 3) < 0 ? null : FRONT_MATTER.exec(bare);
  if (!m) return { content: text };
  const content = bare.slice(m[0].length);
  if (!/(^|\n)\s*paths\s*:/.test(m[1] ?? '')) return { content };
  const globs = pathPatterns(frontMatterData(m[1] ?? '')?.paths);
  return globs ? { content, globs } : { content };
}

/**
 * The front matter as YAML reads it; undefined when it is not YAML (then, as in Claude Code, the
 * file has no `paths:` and applies everywhere). Leading tabs get a second chance as spaces. Plain
 * `key: value` lines and lists are read without loading the YAML library.
 */
function frontMatterData(block: string): Record<string, unknown> | undefined {
  const simple = simpleYaml(block);
  if (simple) return simple;
  const { parse } = yamlLib();
  for (const text of [block, block.replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length))]) {
    try {
      const data = parse(text) as unknown;
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    } catch {
      // not YAML as written
    }
  }
  return undefined;
}

const KEY_LINE = /^([A-Za-z0-9_-]+):(?:[ \t]+(.*))?$/;
const ITEM_LINE = /^[ \t]+-[ \t]+(.*)$/;

/** `key: value` lines, `- item` lists under a key, and `[..]` lists of quoted strings; undefined for anything else. */
function simpleYaml(block: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let list: string[] | undefined;
  for (const line of block.split('\n')) {
    if (!line.trim()) continue;
    const item = ITEM_LINE.exec(line);
    const scalar = item ? simpleScalar(item[1] ?? '') : undefined;
    if (item && list && typeof scalar === 'string') {
      list.push(scalar);
      continue;
    }
    const kv = KEY_LINE.exec(line);
    if (!kv || item || kv[1]! in data) return undefined;
    const raw = (kv[2] ?? '').trim();
    if (!raw) {
      list = [];
      data[kv[1]!] = list;
      continue;
    }
    const value = raw.startsWith('[') ? simpleList(raw) : simpleScalar(raw);
    if (value === undefined) return undefined;
    data[kv[1]!] = value;
    list = undefined;
  }
  for (const [key, value] of Object.entries(data)) if (Array.isArray(value) && !value.length) data[key] = null;
  return data;
}

function simpleScalar(raw: string): string | undefined {
  const v = raw.trim();
  // What YAML would read as a boolean, a null or a number goes to YAML.
  if (/^(?:true|false|yes|no|on|off|null|~)$/i.test(v) || /^[-+.]?\d/.test(v)) return undefined;
  if (/^"[^"\\]*"$/.test(v)) return v.slice(1, -1);
  if (/^'[^']*'$/.test(v)) return v.slice(1, -1);
  if (/^[^\s[\]{}"'&*!|>%@`#,?:-]/.test(v) && !/: |:$| #|\t/.test(v)) return v;
  return undefined;
}

function simpleList(raw: string): string[] | undefined {
  if (!/^\[\s*("[^"\\]*"\s*(,\s*"[^"\\]*"\s*)*)?\]$/.test(raw)) return undefined;
  return JSON.parse(raw) as string[];
}

/** A top-level token and where it sits in the text (line ends made `\n`). */
type Located = Map<Token, { start: number; end: number }>;

function lex(text: string, located?: Located): Token[] {
  const { Lexer, Tokenizer } = markedLib();
  const total = text.replace(/\r\n|\r/g, '\n').length;
  const tokenizer = new Tokenizer();
  if (located) {
    const html = tokenizer.html.bind(tokenizer);
    tokenizer.html = (src: string) => {
      const token = html(src);
      if (token) located.set(token, { start: total - src.length, end: total - src.length + token.raw.length });
      return token;
    };
  }
  // marked's block rules are regular expressions of over a thousand characters. V8 first compiles
  // a regular expression to bytecode and only later to machine code, and for these the bytecode
  // is the slow one: the first file lexed took about 60 ms of CPU that way, under 20 compiled at once.
  setFlagsFromString('--no-regexp-tier-up');
  try {
    return new Lexer({ gfm: false, tokenizer }).lex(text);
  } finally {
    setFlagsFromString('--regexp-tier-up');
  }
}

/**
 * The text without its HTML comment blocks (a block left empty goes with its line), and the tokens
 * when the file was lexed. Comments inside a paragraph or a code block stay.
 */
export function stripCommentBlocks(text: string): { content: string; tokens?: Token[] } {
  if (!text.includes('<!--')) return { content: text };
  const located: Located = new Map();
  const tokens = lex(text, located);
  const flat = text.replace(/\r\n?/g, '\n');
  let out = '';
  let at = 0;
  for (const token of tokens) {
    const where = located.get(token);
    const raw = token.raw.trimStart();
    if (!where || !raw.startsWith('<!--') || !raw.includes('-->')) continue;
    const rest = flat.slice(where.start, where.end).replace(COMMENT, '');
    out += flat.slice(at, where.start) + (rest.trim() ? rest : '');
    at = where.end;
  }
  return at === 0 ? { content: text, tokens } : { content: out + flat.slice(at), tokens };
}

/** Whether the text must be lexed: it has a `<!--`, or an `@` word that could name a path. */
export function needsLexing(text: string): boolean {
  return text.includes('<!--') || (text.includes('@') && [...text.matchAll(ANY_AT)].some((m) => importTarget(m[1] ?? '')));
}

/**
 * The files `file` imports, resolved (relative to its folder, `~/` to the home folder), in the order
 * they appear, once each. `tokens`: the file's tokens when already lexed.
 */
export function importsOf(text: string, file: string, home: string, tokens?: Token[]): string[] {
  return resolveImports(importTargets(text, tokens), file, home);
}

/** The targets `importTargets` found, resolved from `file`'s folder (`~/` from the home folder), once each. */
export function resolveImports(targets: readonly string[], file: string, home: string): string[] {
  return [...new Set(targets.map((t) => resolveImport(t, path.dirname(file), home)))];
}

/** The `@` imports outside code, as written (`#anchor` dropped), in order, once each. */
export function importTargets(text: string, tokens?: Token[]): string[] {
  if (!text.includes('@')) return [];
  // Lexing only tells which `@` words are in code: with none that could name a path, it is not
  // needed. Every `@` is looked at here, as a blockquote's `>@x` is `@x` once lexed.
  if (!tokens && ![...text.matchAll(ANY_AT)].some((m) => importTarget(m[1] ?? ''))) return [];
  const found = new Set<string>();
  const scan = (s: string) => {
    for (const m of s.matchAll(IMPORT)) {
      const target = importTarget(m[1] ?? '');
      if (target) found.add(target);
    }
  };
  const walk = (list: readonly Token[]) => {
    for (const t of list) {
      if (t.type === 'code' || t.type === 'codespan') continue;
      if (t.type === 'html') {
        const raw = t.raw || '';
        const trimmed = raw.trimStart();
        if (trimmed.startsWith('<!--') && trimmed.includes('-->')) {
          const rest = raw.replace(COMMENT, '');
          if (rest.trim()) scan(rest);
        }
        continue;
      }
      if (t.type === 'text') scan((t as Tokens.Text).text || '');
      const nested = t as { tokens?: Token[]; items?: Token[] };
      if (nested.tokens) walk(nested.tokens);
      if (nested.items) walk(nested.items);
    }
  };
  walk(tokens ?? lex(text));
  return [...found];
}

/** The path an `@` names (`#anchor` dropped, `\ ` a space), or undefined when it names none. */
function importTarget(word: string): string | undefined {
  let p = word;
  const hash = p.indexOf('#');
  if (hash !== -1) p = p.slice(0, hash);
  p = p.replaceAll('\\ ', ' ');
  if (!p) return undefined;
  if (p.startsWith('./') || p.startsWith('~/') || (p.startsWith('/') && p !== '/')) return p;
  if (p.startsWith('@') || /^[#%^&*()]+/.test(p) || !/^[a-zA-Z0-9._-]/.test(p)) return undefined;
  return p;
}

function resolveImport(p: string, dir: string, home: string): string {
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(dir, p);
}
