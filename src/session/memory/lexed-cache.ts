/**
 * What lexing an instruction file gives (its text without HTML comment blocks, and the `@` imports
 * outside code, as written), kept on disk by a hash of the file's text: a later start reads it back
 * instead of loading and running the Markdown lexer, which is most of what a project's instruction
 * files cost at start-up. The name is an FNV-1a hash and the length (node:crypto, even node:zlib's
 * CRC-32, costs more to load than the lexing it would save); the entry holds the text it was made
 * from, and is used only for exactly that text. A file that needs no lexing (no `<!--`, no `@` word that could name a path)
 * never comes here. The key holds the lexer's version and this format's, so an upgrade never meets an
 * old answer; a cache that cannot be read or written only costs the lexing.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashText } from '../../base/fs/version.js';
import { importTargets, needsLexing, stripCommentBlocks } from './markdown.js';

export interface Lexed {
  /** The text without its HTML comment blocks. */
  content: string;
  /** The `@` imports outside code, as written, in order, once each. */
  imports: string[];
}

/** marked's version (package.json) and this cache's format. */
const KEY_PREFIX = 'marked-18.2.1/2\n';

/** The text's parts; `dir`: the cache folder, or none (then it is lexed each time). */
export function lexedParts(text: string, dir: string | undefined): Lexed {
  if (!needsLexing(text)) return { content: text, imports: [] };
  const keyed = KEY_PREFIX + text;
  const file = dir ? path.join(dir, `${hashText(keyed)}-${keyed.length}.json`) : undefined;
  const cached = file ? readLexed(file, keyed) : undefined;
  if (cached) return cached;
  const { content, tokens } = stripCommentBlocks(text);
  const lexed = { content, imports: importTargets(text, tokens) };
  if (file) writeLexed(file, { ...lexed, source: keyed });
  return lexed;
}

function readLexed(file: string, source: string): Lexed | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as Partial<Lexed> & { source?: unknown };
    if (v.source !== source) return undefined; // another text with the same checksum, or an older format
    if (typeof v.content !== 'string' || !Array.isArray(v.imports) || !v.imports.every((i) => typeof i === 'string')) return undefined;
    return { content: v.content, imports: v.imports };
  } catch {
    return undefined;
  }
}

function writeLexed(file: string, lexed: Lexed & { source: string }): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, JSON.stringify(lexed));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
