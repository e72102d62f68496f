/**
 * Reading one settings file (settings/read.ts, json-text.ts): JSONC for settings files, strict JSON
 * for the other JSON files wicket reads, and every problem placed at a line and column.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettingsBytes, parseSettingsText, readSettingsFile, type ReadResult } from '../../../src/settings/read.js';

const settings = { settings: true };
const problemOf = (r: ReadResult) => (r.status === 'error' ? `${r.problem.line}:${r.problem.column}: ${r.problem.message}` : r.status);

describe('settings text (JSONC)', () => {
  it('comments, trailing commas and a byte order mark are read', () => {
    const r = parseSettingsText('\uFEFF// c\n{ "a": [1, 2,], /* b */ "b": { "c": true, }, }\n', 'f', settings);
    expect(r).toMatchObject({ status: 'loaded', data: { a: [1, 2], b: { c: true } } });
  });

  it('empty text, and text of comments only, are no settings', () => {
    for (const text of ['', '  \n', '// nothing yet\n', '/* x */'])
      expect(parseSettingsText(text, 'f', settings)).toMatchObject({ status: 'loaded', data: {} });
  });

  it('a key written twice, at any depth, is an error at the second', () => {
    expect(problemOf(parseSettingsText('{\n  "a": { "x": 1,\n    "x": 2 } }', 'f', settings))).toBe(
      '3:5: the key "x" is written twice in the same object (first at line 2, column 10); only one would count',
    );
  });

  it('knows where each value is', () => {
    const r = parseSettingsText('{\n  "permissions": {\n    "deny": [\n      "a", 7 ] } }', 'f', settings);
    if (r.status !== 'loaded') throw new Error('not loaded');
    expect(r.at(['permissions', 'deny', 1])).toEqual({ line: 4, column: 12 });
    expect(r.at(['permissions', 'nope'])).toEqual({ line: 2, column: 18 });
  });

  it('lines are counted over CRLF too', () => {
    expect(problemOf(parseSettingsText('{\r\n  "a": 1\r\n  "b": 2\r\n}', 'f', settings))).toBe('3:3: expected "," before "b" (a comma is missing)');
  });
});

describe('other JSON files stay strict, with the same places', () => {
  it('a trailing comma and a comment are errors there', () => {
    expect(problemOf(parseSettingsText('{ "a": 1, }', 'f'))).toBe('1:11: trailing comma before "}"');
    expect(problemOf(parseSettingsText('// c\n{}', 'f'))).toBe('1:1: comments are not allowed in JSON');
  });

  it('the warning keeps its form for the readers that show it', () => {
    const r = parseSettingsText('{ "a": }', 'plugin.json');
    expect(r.status === 'error' && r.warning).toBe('plugin.json: invalid JSON at line 1, column 8: expected a value, found "}"; the file is ignored');
  });
});

describe('settings bytes', () => {
  it('UTF-16, either byte order, is an error that says to save as UTF-8', () => {
    for (const bom of [
      [0xff, 0xfe],
      [0xfe, 0xff],
    ]) {
      const r = parseSettingsBytes(Buffer.concat([Buffer.from(bom), Buffer.from('{}', 'utf16le')]), 'f', settings);
      expect(r).toMatchObject({ status: 'error', problem: { line: 1, column: 1, hint: 'save it as UTF-8' } });
    }
  });

  it('bytes that are not UTF-8 are placed where they start, a cut sequence at the end too', () => {
    const bad = Buffer.concat([Buffer.from('{\n  "é": "x'), Buffer.from([0xff]), Buffer.from('" }')]);
    expect(problemOf(parseSettingsBytes(bad, 'f', settings))).toBe('2:10: bytes that are not valid UTF-8');
    const cut = Buffer.concat([Buffer.from('{ "a": "'), Buffer.from([0xe2, 0x82])]);
    expect(problemOf(parseSettingsBytes(cut, 'f', settings))).toBe('1:9: bytes that are not valid UTF-8');
  });

  it('a UTF-8 byte order mark does not move the columns', () => {
    expect(problemOf(parseSettingsBytes(Buffer.from('\uFEFF{ "a" 1 }'), 'f', settings))).toBe('1:7: expected ":" after the property name, found "1"');
  });
});

describe('settings files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'wicket-read-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a file that is not there is missing, also under a path through a file', () => {
    expect(readSettingsFile(path.join(dir, 'none.json'), settings).status).toBe('missing');
    writeFileSync(path.join(dir, 'plain'), 'x');
    expect(readSettingsFile(path.join(dir, 'plain', 'settings.json'), settings).status).toBe('missing');
  });

  it('a named pipe is refused unread, unless asked for (--settings <(…))', () => {
    const fifo = path.join(dir, 'p.json');
    execFileSync('mkfifo', [fifo]);
    expect(problemOf(readSettingsFile(fifo, settings))).toBe('1:1: is not a regular file (a pipe, a socket or a device)');
  });

  it('over the size limit is an error before the file is read', () => {
    const big = path.join(dir, 'big.json');
    writeFileSync(big, `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    expect(problemOf(readSettingsFile(big, settings))).toMatch(/^1:1: 2097160 bytes is over the 2097152-byte limit/);
  });
});
