import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from '../../../src/tools/edit/index.js';
import { readTool } from '../../../src/tools/read/index.js';
import { writeTool } from '../../../src/tools/write/index.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeEach(() => {
  env = createToolEnv();
});
afterEach(() => env.cleanup());

async function read(rel: string) {
  await runTool(readTool, { file_path: env.file(rel) }, env.nextCall(), env.state);
}

async function write(file_path: string, content: string) {
  return tryRunTool(writeTool, { file_path, content }, env.nextCall(), env.state);
}

async function writeOk(file_path: string, content: string) {
  return runTool(writeTool, { file_path, content }, env.nextCall(), env.state);
}

describe('Write', () => {
  it('creates a file and its parent directories', async () => {
    const r = await writeOk(env.file('a/b/c.txt'), 'one\ntwo\n');
    expect(readFileSync(env.file('a/b/c.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(resultText(r.modelResult)).toBe(`File created successfully at: ${env.file('a/b/c.txt')} (2 lines)`);
    expect(r.display?.diff).toBe('--- /dev/null\n+++ b/a/b/c.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n');
    expect(r.display?.summary).toBe('Created a/b/c.txt (2 lines, +2 -0)');
  });

  it('resolves a relative path against the cwd', async () => {
    await writeOk('rel.txt', 'x');
    expect(readFileSync(env.file('rel.txt'), 'utf8')).toBe('x');
  });

  it('overwrites a file that was read, showing a diff against the old content', async () => {
    writeFileSync(env.file('a.txt'), 'old line\nsame\n');
    await read('a.txt');
    const r = await writeOk(env.file('a.txt'), 'new line\nsame\n');
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('new line\nsame\n');
    expect(resultText(r.modelResult)).toBe(`The file ${env.file('a.txt')} has been overwritten (2 lines).`);
    expect(r.display?.diff).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-old line\n+new line\n same\n');
  });

  it('hooks see it as Claude Code gives it: a new file without a patch, an overwrite with its patch and the text it replaced', async () => {
    const created = await writeOk(env.file('n.txt'), 'one\n');
    expect(writeTool.toolResponse!(created.output, { file_path: env.file('n.txt'), content: 'one\n' })).toEqual({
      type: 'create',
      filePath: env.file('n.txt'),
      content: 'one\n',
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    });
    await read('n.txt');
    const updated = await writeOk(env.file('n.txt'), 'two\n');
    expect(writeTool.toolResponse!(updated.output, { file_path: env.file('n.txt'), content: 'two\n' })).toMatchObject({
      type: 'update',
      originalFile: 'one\n',
      structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-one', '+two'] }],
    });
  });

  it('refuses to overwrite a file that was never read', async () => {
    writeFileSync(env.file('a.txt'), 'keep\n');
    expect(await write(env.file('a.txt'), 'lose')).toMatchObject({
      ok: false,
      stage: 'validate',
      message: 'File has not been read yet. Read it first before writing to it.',
    });
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('keep\n');
  });

  it('refuses to overwrite a file changed since it was read', async () => {
    writeFileSync(env.file('a.txt'), 'v1\n');
    await read('a.txt');
    writeFileSync(env.file('a.txt'), 'v1 plus a formatter\n');
    expect(await write(env.file('a.txt'), 'mine')).toMatchObject({ ok: false, message: expect.stringMatching(/modified since it was read/) });
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('v1 plus a formatter\n');
  });

  it('counts its own write as a read: write, then edit, then write again', async () => {
    await writeOk(env.file('a.txt'), 'first\n');
    await runTool(editTool, { file_path: env.file('a.txt'), old_string: 'first', new_string: 'second' }, env.nextCall(), env.state);
    await writeOk(env.file('a.txt'), 'third\n');
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('third\n');
  });

  it('keeps mode bits, CRLF line endings and a UTF-8 BOM when overwriting', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    writeFileSync(env.file('w.bat'), Buffer.concat([bom, Buffer.from('@echo off\r\necho hi\r\n')]));
    chmodSync(env.file('w.bat'), 0o700);
    await read('w.bat');
    await writeOk(env.file('w.bat'), '@echo off\necho bye\n');
    expect(readFileSync(env.file('w.bat'))).toEqual(Buffer.concat([bom, Buffer.from('@echo off\r\necho bye\r\n')]));
    expect(statSync(env.file('w.bat')).mode & 0o777).toBe(0o700);
  });

  it('keeps UTF-16 when overwriting', async () => {
    writeFileSync(env.file('u.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\n', 'utf16le')]));
    await read('u.txt');
    await writeOk(env.file('u.txt'), 'ü\n');
    expect(readFileSync(env.file('u.txt'))).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ü\n', 'utf16le')]));
  });

  it('refuses directories and paths inside .git/', async () => {
    mkdirSync(env.file('dir'));
    expect(await write(env.file('dir'), 'x')).toMatchObject({ ok: false, message: expect.stringMatching(/is a directory/) });
    expect(await write(env.file('.git/hooks/pre-commit'), 'x')).toMatchObject({ ok: false, message: expect.stringMatching(/inside \.git\//) });
    expect(readdirSync(env.project)).toEqual(['dir']);
  });

  it('rejects nonsense input at the schema', async () => {
    expect((await tryRunTool(writeTool, { file_path: 'a' }, env.nextCall())).ok).toBe(false);
    expect((await tryRunTool(writeTool, { file_path: 'a', content: 3 }, env.nextCall())).ok).toBe(false);
    expect((await tryRunTool(writeTool, { file_path: '', content: '' }, env.nextCall())).ok).toBe(false);
  });

  it('writes nothing when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await tryRunTool(writeTool, { file_path: env.file('a.txt'), content: 'x' }, env.nextCall({ signal: controller.signal }));
    expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/cancelled/) });
    expect(readdirSync(env.project)).toEqual([]);
  });

  it('asks by default and is not concurrency-safe', async () => {
    expect(await writeTool.checkPermissions({ file_path: 'notes.md', content: '' }, env.ctx)).toEqual({
      behavior: 'ask',
      reason: 'Write notes.md',
      suggestions: ['Edit(notes.md)'],
    });
    expect(writeTool.permissionPaths?.({ file_path: 'notes.md', content: '' }, env.ctx)).toEqual({ access: 'write', paths: [env.file('notes.md')] });
    expect(writeTool.isReadOnly({ file_path: 'a', content: '' })).toBe(false);
    expect(writeTool.isConcurrencySafe({ file_path: 'a', content: '' })).toBe(false);
  });
});
