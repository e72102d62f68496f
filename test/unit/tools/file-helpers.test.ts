/** The pure helpers behind the file tools: encodings, line windows, edits, near matches, diffs. */
import { closeSync, openSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch } from 'diff';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyEdit } from '../../../src/tools/edit/apply-edit.js';
import { findNearMatch } from '../../../src/tools/edit/near-match.js';
import { diffHunks, formatUnifiedDiff } from '../../../src/tools/fs/diff.js';
import { decodeText, detectEncoding, detectLineEnding, encodeText, isUtf8, toCrlf, toLf, type EncodingInfo } from '../../../src/tools/fs/encoding.js';
import { looksBinary, sniffImageType } from '../../../src/tools/fs/file-kind.js';
import { ruleSpecifier } from '../../../src/tools/fs/permissions.js';
import { nameDistance } from '../../../src/tools/fs/similar-names.js';
import { snippetAround } from '../../../src/tools/fs/snippet.js';
import { scanTextFd, scanTextFile, type WindowOptions } from '../../../src/tools/read/line-window.js';
import { parsePageRange } from '../../../src/tools/read/pdf.js';
import { createToolEnv, type ToolEnv } from '../../support/tool-context.js';

describe('encodings', () => {
  it.each<[string, Buffer, EncodingInfo]>([
    ['plain UTF-8', Buffer.from('héllo'), { encoding: 'utf8', bomLength: 0 }],
    ['UTF-8 BOM', Buffer.from([0xef, 0xbb, 0xbf, 0x61]), { encoding: 'utf8', bomLength: 3 }],
    ['UTF-16 LE BOM', Buffer.from([0xff, 0xfe, 0x61, 0]), { encoding: 'utf16le', bomLength: 2 }],
    ['UTF-16 BE BOM', Buffer.from([0xfe, 0xff, 0, 0x61]), { encoding: 'utf16be', bomLength: 2 }],
    ['UTF-16 LE without BOM', Buffer.from('hello world', 'utf16le'), { encoding: 'utf16le', bomLength: 0 }],
    ['Latin-1', Buffer.from('caf\xe9 cr\xe8me', 'latin1'), { encoding: 'latin1', bomLength: 0 }],
  ])('detects %s and round-trips it byte for byte', (_name, bytes, info) => {
    expect(detectEncoding(bytes)).toEqual(info);
    expect(encodeText(decodeText(bytes, info), info)).toEqual(bytes);
  });

  it('accepts a UTF-8 sequence cut by the end of a sample only when asked to', () => {
    const cut = Buffer.from('ab€').subarray(0, 4);
    expect(isUtf8(cut, true)).toBe(true);
    expect(isUtf8(cut)).toBe(false);
    expect(isUtf8(Buffer.from([0x61, 0xff, 0x62]), true)).toBe(false);
  });

  it('tells line-ending styles apart and converts without touching lone CRs', () => {
    expect(detectLineEnding('a\nb\n')).toBe('lf');
    expect(detectLineEnding('a\r\nb')).toBe('crlf');
    expect(detectLineEnding('a\r\nb\n')).toBe('mixed');
    expect(detectLineEnding('no newline')).toBe('lf');
    expect(toCrlf(toLf('a\r\r\nb\r\n'))).toBe('a\r\r\nb\r\n');
  });

  it('sniffs binary content and image types', () => {
    expect(looksBinary(Buffer.from('plain text\twith tabs\n'))).toBe(false);
    expect(looksBinary(Buffer.from([0x61, 0, 0x62]))).toBe(true);
    expect(looksBinary(Buffer.from([1, 2, 3, 4, 5, 0x61]))).toBe(true);
    expect(sniffImageType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('not an image'))).toBeUndefined();
  });
});

// The streaming pass and the blocking one for small files must agree on everything.
describe.each(['streamed', 'blocking'] as const)('text scan, %s', (how) => {
  let env: ToolEnv;
  beforeEach(() => {
    env = createToolEnv();
  });
  afterEach(() => env.cleanup());

  const opts: WindowOptions = { startLine: 1, limit: 10, maxLineChars: 50, maxOutputChars: 10_000 };

  async function scan(content: Buffer | string, o: Partial<WindowOptions> = {}) {
    const file = path.join(env.project, 'f.txt');
    await writeFile(file, content);
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const encoding = detectEncoding(bytes.subarray(0, 8192));
    if (how === 'blocking') {
      const fd = openSync(file, 'r');
      try {
        return scanTextFd(fd, encoding, { ...opts, ...o });
      } finally {
        closeSync(fd);
      }
    }
    const fh = await open(file);
    try {
      return await scanTextFile(fh, encoding, { ...opts, ...o });
    } finally {
      await fh.close();
    }
  }

  it('keeps CRLF and multi-byte characters whole across chunk boundaries', async () => {
    const chunk = 256 * 1024;
    const head = 'x'.repeat(chunk - 1);
    const r = await scan(`${head}\r\n€${'y'.repeat(chunk - 2)}€\nlast`, { maxLineChars: chunk + 10, maxOutputChars: 4 * chunk });
    expect(r.totalLines).toBe(3);
    expect(r.lines[0]).toBe(head);
    expect(r.lines[1]).toBe(`€${'y'.repeat(chunk - 2)}€`);
    expect(r.lines[2]).toBe('last');
  });

  it('keeps only a prefix of a huge single line and still counts it right', async () => {
    const r = await scan('z'.repeat(3_000_000));
    expect(r.totalLines).toBe(1);
    expect(r.lines).toEqual([`${'z'.repeat(50)}… [line cut: 2999950 more characters]`]);
    expect(r.cutLines).toBe(1);
  });

  it('counts lines outside the window without keeping them', async () => {
    const r = await scan('1\n2\n3\n4\n5\n', { startLine: 2, limit: 2 });
    expect(r).toMatchObject({ lines: ['2', '3'], totalLines: 5, whitespaceOnly: false, size: 10 });
  });

  it('hashes the raw bytes, BOM included', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\n')]);
    const r = await scan(bytes);
    const { hashBytes } = await import('../../../src/base/fs/version.js');
    expect(r.hash).toBe(hashBytes(bytes));
    expect(r.lines).toEqual(['a']);
  });

  it('checksums content the same in pieces as whole, and tells apart content of the same size', async () => {
    const { ContentChecksum, hashBytes } = await import('../../../src/base/fs/version.js');
    const whole = Buffer.from('const a = 1;\nconst b = 2;\n');
    const sum = new ContentChecksum();
    sum.update(whole.subarray(0, 5));
    sum.update(whole.subarray(5));
    expect(sum.digest()).toBe(hashBytes(whole));
    expect(hashBytes(Buffer.from('const a = 1;\nconst b = 3;\n'))).not.toBe(hashBytes(whole));
    expect(hashBytes(Buffer.alloc(0))).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('applyEdit', () => {
  it('edits a CRLF file in LF and converts back', () => {
    expect(applyEdit('a\r\nb\r\nc\r\n', 'a\nb', 'x\ny\nz', false)).toMatchObject({ ok: true, content: 'x\r\ny\r\nz\r\nc\r\n', firstLine: 1, newLineCount: 3 });
  });

  it('takes the newline along when deleting whole lines, but only when every match has one', () => {
    expect(applyEdit('a\nb\nc\n', 'b', '', false)).toMatchObject({ ok: true, content: 'a\nc\n' });
    expect(applyEdit('ab b\n', 'b', '', true)).toMatchObject({ ok: true, content: 'a \n' });
  });

  it('reports the match count and the first line', () => {
    expect(applyEdit('x\ny\nx\n', 'x', 'z', false)).toEqual({ ok: false, reason: 'ambiguous', count: 2 });
    expect(applyEdit('q\nx\ny\nx\n', 'x', 'z', true)).toMatchObject({ ok: true, replacements: 2, firstLine: 2, content: 'q\nz\ny\nz\n' });
    expect(applyEdit('abc', 'd', 'e', false)).toEqual({ ok: false, reason: 'not-found' });
  });
});

describe('findNearMatch', () => {
  const file = 'function a() {\n\tconst msg = \u201chi\u201d;\n\treturn   msg;\n}\n';

  it.each([
    ['line-number prefixes', '2\tconst msg = \u201chi\u201d;', 'line-numbers', 2],
    ['quote style', 'const msg = "hi";', 'quotes', 2],
    ['indentation', '  return   msg;', 'indentation', 3],
    ['inner whitespace', '\treturn msg;', 'whitespace', 3],
    ['similar text', 'function ab() {', 'similar', 1],
  ])('finds %s', (_name, old, kind, line) => {
    expect(findNearMatch(file, old)).toMatchObject({ kind, line });
  });

  it('finds nothing for unrelated text', () => {
    expect(findNearMatch(file, 'completely different words here')).toBeUndefined();
  });
});

describe('diffHunks', () => {
  // A small deterministic generator, so failures reproduce.
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };

  it('produces patches that turn the old text into the new one (200 random edits)', () => {
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 1 + rand(40) }, () => `line ${rand(8)}`);
      const before = lines.join('\n') + (rand(2) ? '\n' : '');
      const after = [...lines];
      for (let k = 0; k < 1 + rand(3); k++) {
        const at = rand(after.length + 1);
        const op = rand(3);
        if (op === 0) after.splice(at, 1);
        else if (op === 1) after.splice(at, 0, `new ${rand(5)}`);
        else after[Math.min(at, after.length - 1)] = `changed ${rand(5)}`;
      }
      const afterText = after.join('\n') + (rand(2) ? '\n' : '');
      const hunks = diffHunks(before, afterText);
      const patched = applyPatch(before, { oldFileName: 'a', newFileName: 'b', oldHeader: '', newHeader: '', hunks });
      expect(patched, `round ${round}`).toBe(afterText);
    }
  });

  it('numbers hunks from the whole file', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `l${i + 1}`);
    const changed = [...lines];
    changed[49] = 'CHANGED';
    const text = formatUnifiedDiff('f.txt', diffHunks(`${lines.join('\n')}\n`, `${changed.join('\n')}\n`));
    expect(text).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -47,7 +47,7 @@\n l47\n l48\n l49\n-l50\n+CHANGED\n l51\n l52\n l53\n');
  });
});

describe('small helpers', () => {
  it('cuts a snippet around a change', () => {
    const text = Array.from({ length: 20 }, (_, i) => `${i + 1}`).join('\n') + '\n';
    expect(snippetAround(text, 10, 1, 2)).toEqual({ startLine: 8, lines: ['8', '9', '10', '11', '12'] });
    expect(snippetAround(text, 1, 1, 2)).toEqual({ startLine: 1, lines: ['1', '2', '3'] });
    expect(snippetAround('a\nb\n', 2, 1, 4)).toEqual({ startLine: 1, lines: ['a', 'b'] });
  });

  it('parses page ranges', () => {
    expect(parsePageRange('3')).toEqual({ first: 3, last: 3 });
    expect(parsePageRange(' 2 - 5 ')).toEqual({ first: 2, last: 5 });
    expect(parsePageRange('4-')).toEqual({ first: 4 });
    expect(parsePageRange('0')).toHaveProperty('error');
    expect(parsePageRange('5-2')).toHaveProperty('error');
  });

  it('scores near names', () => {
    expect(nameDistance('Readme.md', 'README.md')).toBe(0);
    expect(nameDistance('index.ts', 'index.tsx')).toBe(1);
    expect(nameDistance('confg.json', 'config.json')).toBe(1);
  });

  it('writes rule paths the way Claude Code reads them', () => {
    const ctx = { cwd: '/p/proj', homeDir: '/home/u' };
    expect(ruleSpecifier('/p/proj/src/a.ts', ctx)).toBe('src/a.ts');
    expect(ruleSpecifier('/home/u/.config/x', ctx)).toBe('~/.config/x');
    expect(ruleSpecifier('/etc/hosts', ctx)).toBe('//etc/hosts');
  });
});
