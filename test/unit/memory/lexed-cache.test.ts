import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lexedParts } from '../../../src/session/memory/lexed-cache.js';
import { stripCommentBlocks } from '../../../src/session/memory/markdown.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const cacheDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'wicket-lexed-'));
  dirs.push(d);
  return path.join(d, 'cache');
};
const TEXT = '# Project\n\n<!-- hidden @secret.md -->\n\nSee @docs/a.md and `@not-this.md`.\n\n```\n@nor-this.md\n```\n';

describe('lexedParts', () => {
  it('gives the same parts from the cache as from the lexer, and the cache is what answers the second time', () => {
    const dir = cacheDir();
    const first = lexedParts(TEXT, dir);
    expect(first).toEqual({ content: stripCommentBlocks(TEXT).content, imports: ['docs/a.md'] });
    expect(first.content).not.toContain('hidden');
    const [file] = readdirSync(dir);
    // A cached answer is read back as written: change it on disk and the next call gives the change.
    const entry = JSON.parse(readFileSync(path.join(dir, file!), 'utf8')) as { source: string };
    writeFileSync(path.join(dir, file!), JSON.stringify({ ...entry, content: 'from the cache', imports: [] }));
    expect(lexedParts(TEXT, dir)).toEqual({ content: 'from the cache', imports: [] });
    // An entry made from another text (a checksum that collides) is never used for this one.
    writeFileSync(path.join(dir, file!), JSON.stringify({ source: 'another text', content: 'wrong', imports: [] }));
    expect(lexedParts(TEXT, dir).content).toBe(first.content);
    expect(lexedParts(`${TEXT} `, dir).imports).toEqual(['docs/a.md']);
  });

  it('lexes again when the cached entry is damaged, and keeps files that need no lexing out of the cache', () => {
    const dir = cacheDir();
    lexedParts(TEXT, dir);
    const [file] = readdirSync(dir);
    writeFileSync(path.join(dir, file!), '{"content": 3');
    expect(lexedParts(TEXT, dir).imports).toEqual(['docs/a.md']);
    expect(lexedParts('plain text, an email a@ and nothing else\n', dir)).toEqual({ content: 'plain text, an email a@ and nothing else\n', imports: [] });
    expect(readdirSync(dir)).toHaveLength(1);
  });
});
