import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTool } from '../../../src/tools/read/index.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';
import { makePdf } from './pdf-fixture.js';

// A 1x1 transparent PNG.
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let env: ToolEnv;
beforeEach(() => {
  env = createToolEnv();
});
afterEach(() => env.cleanup());

function lines(n: number, make = (i: number) => `line ${i}`): string {
  return Array.from({ length: n }, (_, i) => make(i + 1)).join('\n') + '\n';
}

async function read(input: Record<string, unknown>) {
  return tryRunTool(readTool, input, env.nextCall(), env.state);
}

async function readText(input: Record<string, unknown>): Promise<string> {
  const r = await runTool(readTool, input, env.nextCall(), env.state);
  return resultText(r.modelResult);
}

async function refusal(input: Record<string, unknown>): Promise<string> {
  const r = await read(input);
  if (r.ok) throw new Error(`expected a refusal, got ${resultText(r.modelResult).slice(0, 200)}`);
  return r.message;
}

describe('Read: text', () => {
  it('returns numbered lines and names the absolute path', async () => {
    writeFileSync(env.file('a.txt'), 'alpha\nbeta\ngamma\n');
    const text = await readText({ file_path: env.file('a.txt') });
    expect(text).toBe(`File: ${env.file('a.txt')} (lines 1-3 of 3)\n1\talpha\n2\tbeta\n3\tgamma`);
  });

  it('resolves a relative path against the cwd', async () => {
    mkdirSync(env.file('src'));
    writeFileSync(env.file('src/x.ts'), 'export {};');
    const text = await readText({ file_path: 'src/x.ts' });
    expect(text).toContain(env.file('src/x.ts'));
    expect(text).toContain('1\texport {};');
  });

  it('shows a default window of 2,000 lines and says how to read on', async () => {
    writeFileSync(env.file('long.txt'), lines(2500));
    const text = await readText({ file_path: env.file('long.txt') });
    expect(text).toContain('(lines 1-2000 of 2500)');
    expect(text).toContain('2000\tline 2000');
    expect(text).not.toContain('2001\tline 2001');
    expect(text).toContain('Use offset=2001 to read on');
  });

  it('reads a window with offset and limit', async () => {
    writeFileSync(env.file('long.txt'), lines(100));
    const text = await readText({ file_path: env.file('long.txt'), offset: 10, limit: 3 });
    expect(text.split('\n').slice(1, 4)).toEqual(['10\tline 10', '11\tline 11', '12\tline 12']);
    expect(text).toContain('Use offset=13');
  });

  it('notes an offset past the end, an empty file and a whitespace-only file', async () => {
    writeFileSync(env.file('short.txt'), lines(5));
    writeFileSync(env.file('empty.txt'), '');
    writeFileSync(env.file('blank.txt'), '  \n\t\n\n');
    expect(await readText({ file_path: env.file('short.txt'), offset: 50 })).toMatch(/has 5 lines; offset 50 is past the end/);
    expect(await readText({ file_path: env.file('empty.txt') })).toMatch(/exists but is empty/);
    expect(await readText({ file_path: env.file('blank.txt') })).toMatch(/contains only whitespace \(3 lines\)/);
  });

  it('cuts lines over 2,000 characters with a marker', async () => {
    writeFileSync(env.file('wide.txt'), `${'x'.repeat(5000)}\nshort\n`);
    const text = await readText({ file_path: env.file('wide.txt') });
    expect(text).toContain(`1\t${'x'.repeat(2000)}… [line cut: 3000 more characters]`);
    expect(text).toContain('2\tshort');
    expect(text).toContain('1 line(s) longer than 2000 characters were cut');
  });

  it('shows CRLF files with LF and keeps a missing final newline', async () => {
    writeFileSync(env.file('crlf.txt'), 'one\r\ntwo\r\nthree');
    const text = await readText({ file_path: env.file('crlf.txt') });
    expect(text).toBe(`File: ${env.file('crlf.txt')} (lines 1-3 of 3)\n1\tone\n2\ttwo\n3\tthree`);
  });

  it.each([
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nwörld\n')])],
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\nwörld\r\n', 'utf16le')])],
    ['UTF-16 BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('héllo\nwörld\n', 'utf16le').swap16()])],
  ])('decodes %s', async (_name, bytes) => {
    writeFileSync(env.file('enc.txt'), bytes);
    const text = await readText({ file_path: env.file('enc.txt') });
    expect(text.split('\n').slice(1)).toEqual(['1\théllo', '2\twörld']);
  });

  it('decodes non-UTF-8 bytes as Latin-1 instead of replacement characters', async () => {
    writeFileSync(env.file('latin.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    expect(await readText({ file_path: env.file('latin.txt') })).toContain('1\tcafé');
  });

  it('cuts the window at the output limit, on a line boundary', async () => {
    writeFileSync(
      env.file('big-lines.txt'),
      lines(1500, () => 'y'.repeat(1000)),
    );
    const text = await readText({ file_path: env.file('big-lines.txt') });
    expect(text).toMatch(/The output limit was reached: \d+ lines not shown\. Use offset=\d+/);
    expect(text.length).toBeLessThan(110_000);
  });
});

describe('Read: read state', () => {
  it('records the version and range it read (the context change)', async () => {
    writeFileSync(env.file('a.txt'), 'hello\n');
    await readText({ file_path: env.file('a.txt'), offset: 1, limit: 10 });
    const entry = env.state.readState.get(env.file('a.txt'));
    expect(entry?.ranges).toEqual([{ offset: 1, limit: 10 }]);
    expect(entry?.version.size).toBe(6);
    expect(entry?.version.hash).toMatch(/^[0-9a-f]{8}$/);
  });

  it('answers a repeated read of the same unchanged range with a short note', async () => {
    writeFileSync(env.file('a.txt'), lines(10));
    await readText({ file_path: env.file('a.txt') });
    const again = await readText({ file_path: env.file('a.txt') });
    expect(again).toMatch(/unchanged since your last read of this range/);
    expect(again).not.toContain('1\tline 1');
    // another range is new content
    expect(await readText({ file_path: env.file('a.txt'), offset: 2, limit: 2 })).toContain('2\tline 2');
  });

  it('returns content again once the file changed', async () => {
    writeFileSync(env.file('a.txt'), 'v1\n');
    await readText({ file_path: env.file('a.txt') });
    writeFileSync(env.file('a.txt'), 'v2\n');
    expect(await readText({ file_path: env.file('a.txt') })).toContain('1\tv2');
  });
});

describe('Read: refusals', () => {
  it('refuses a missing file, naming the cwd and a near-named sibling', async () => {
    writeFileSync(env.file('config.json'), '{}');
    const msg = await refusal({ file_path: env.file('config.jsn') });
    expect(msg).toContain(`File does not exist: ${env.file('config.jsn')}`);
    expect(msg).toContain(`current working directory: ${env.project}`);
    expect(msg).toContain(`Did you mean ${env.file('config.json')}?`);
  });

  it('refuses a directory and suggests Glob or ls', async () => {
    mkdirSync(env.file('dir'));
    expect(await refusal({ file_path: env.file('dir') })).toMatch(/is a directory.*Glob.*ls/);
  });

  it('refuses /dev/zero and /dev/stdin without opening them', async () => {
    expect(await refusal({ file_path: '/dev/zero' })).toMatch(/device/);
    expect(await refusal({ file_path: '/dev/stdin' })).toMatch(/device/);
  });

  it('refuses a FIFO without blocking on it', async () => {
    const fifo = env.file('pipe');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect(await refusal({ file_path: fifo })).toMatch(/FIFO/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a symlink that points at a device', async () => {
    execFileSync('ln', ['-s', '/dev/zero', env.file('zero-link')]);
    expect(await refusal({ file_path: env.file('zero-link') })).toMatch(/device file/);
  });

  it('refuses binary files by content, whatever the extension', async () => {
    writeFileSync(env.file('data.txt'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    expect(await refusal({ file_path: env.file('data.txt') })).toMatch(/binary file/);
    writeFileSync(env.file('archive.zip'), 'PK not really');
    expect(await refusal({ file_path: env.file('archive.zip') })).toMatch(/binary file/);
  });

  it('refuses a 50 MB file without a range, and reads it with one', async () => {
    const big = env.file('big.log');
    writeFileSync(big, Buffer.alloc(50 * 1024 * 1024, 'a log line\n'));
    expect(await refusal({ file_path: big })).toMatch(/50\.0 MiB, too large to read without a range.*offset and limit/);
    const text = await readText({ file_path: big, offset: 1_000_000, limit: 2 });
    expect(text).toContain('(lines 1000000-1000001 of 4766255)\n1000000\ta log line\n1000001\ta log line');
  });

  it('refuses pages for a non-PDF and a malformed page range', async () => {
    writeFileSync(env.file('a.txt'), 'x');
    expect(await refusal({ file_path: env.file('a.txt'), pages: '1-2' })).toMatch(/only for PDF/);
    writeFileSync(env.file('doc.pdf'), makePdf(['one']));
    expect(await refusal({ file_path: env.file('doc.pdf'), pages: 'first' })).toMatch(/pages must look like/);
    expect(await refusal({ file_path: env.file('doc.pdf'), pages: '1-30' })).toMatch(/at most 20 pages/);
  });

  it('rejects nonsense input at the schema', async () => {
    expect((await read({ file_path: 'a', limit: -1 })).ok).toBe(false);
    expect((await read({ file_path: 'a', bogus: true })).ok).toBe(false);
    expect((await read({})).ok).toBe(false);
  });

  it('stops when the call is aborted', async () => {
    writeFileSync(env.file('a.txt'), lines(10));
    const controller = new AbortController();
    controller.abort();
    const r = await tryRunTool(readTool, { file_path: env.file('a.txt') }, env.nextCall({ signal: controller.signal }));
    expect(r).toMatchObject({ ok: false, stage: 'call', message: expect.stringMatching(/cancelled/) });
  });
});

describe('Read: images, PDFs, notebooks', () => {
  it('returns a PNG as an image block', async () => {
    writeFileSync(env.file('dot.png'), PNG_1X1);
    const r = await runTool(readTool, { file_path: env.file('dot.png') }, env.nextCall(), env.state);
    const content = r.modelResult.content;
    expect(Array.isArray(content) && content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG_1X1.toString('base64') },
    });
    expect(env.state.readState.get(env.file('dot.png'))).toBeDefined();
  });

  it('trusts the image content over the extension, and refuses images over the size cap', async () => {
    writeFileSync(env.file('actually-png.jpg'), PNG_1X1);
    const r = await runTool(readTool, { file_path: env.file('actually-png.jpg') }, env.nextCall());
    expect(r.output).toMatchObject({ kind: 'image', mediaType: 'image/png' });
    writeFileSync(env.file('huge.png'), Buffer.concat([PNG_1X1, Buffer.alloc(4 * 1024 * 1024)]));
    expect(await refusal({ file_path: env.file('huge.png') })).toMatch(/over the 3\.8 MiB limit for images/);
  });

  it('reads a 3-page PDF, whole and by page range', async () => {
    writeFileSync(env.file('doc.pdf'), makePdf(['First page text', 'Second page text', 'Third page text']));
    const all = await readText({ file_path: env.file('doc.pdf') });
    expect(all).toContain('pages 1-3 of 3');
    expect(all).toMatch(/--- Page 1 ---\nFirst page text/);
    expect(all).toMatch(/--- Page 3 ---\nThird page text/);
    const some = await readText({ file_path: env.file('doc.pdf'), pages: '2-3' });
    expect(some).not.toContain('First page text');
    expect(some).toContain('Second page text');
    const past = await read({ file_path: env.file('doc.pdf'), pages: '5' });
    expect(past).toMatchObject({ ok: false, message: expect.stringMatching(/only 3 pages/) });
  });

  it('refuses a long PDF without pages, giving the page count', async () => {
    writeFileSync(env.file('long.pdf'), makePdf(Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`)));
    const r = await read({ file_path: env.file('long.pdf') });
    expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/has 12 pages.*pass pages/i) });
    expect(await readText({ file_path: env.file('long.pdf'), pages: '11-' })).toMatch(/Page 11[\s\S]*Page 12/);
  });

  it('reads a notebook as cells with their outputs', async () => {
    const nb = {
      cells: [
        { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'Some text'] },
        {
          cell_type: 'code',
          id: 'calc',
          execution_count: 2,
          metadata: {},
          source: 'print(1 + 1)',
          outputs: [
            { output_type: 'stream', name: 'stdout', text: ['2\n'] },
            { output_type: 'display_data', data: { 'image/png': PNG_1X1.toString('base64'), 'text/plain': ['<Figure>'] }, metadata: {} },
            { output_type: 'error', ename: 'ValueError', evalue: 'bad', traceback: ['\u001b[31mTraceback\u001b[0m'] },
          ],
        },
      ],
      metadata: { language_info: { name: 'python' } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    writeFileSync(env.file('n.ipynb'), JSON.stringify(nb, null, 1));
    const r = await runTool(readTool, { file_path: env.file('n.ipynb') }, env.nextCall(), env.state);
    const text = resultText(r.modelResult);
    expect(text).toContain('<cell id="intro" cell_type="markdown">\n# Title\nSome text\n</cell>');
    expect(text).toContain('<cell id="calc" cell_type="code" language="python" execution_count="2">\nprint(1 + 1)\n</cell>');
    expect(text).toContain('<output cell_id="calc" type="stream">\n2\n</output>');
    expect(text).toContain('ValueError: bad\nTraceback');
    expect(text).toContain('[image image/png]');
  });
});

describe('Read: classifiers and permissions', () => {
  it('is read-only and concurrency-safe', () => {
    expect(readTool.isReadOnly({ file_path: 'x' })).toBe(true);
    expect(readTool.isConcurrencySafe({ file_path: 'x' })).toBe(true);
  });

  it('allows reads inside the workspace and asks outside it', async () => {
    const inside = await readTool.checkPermissions({ file_path: 'src/a.ts' }, env.ctx);
    expect(inside.behavior).toBe('allow');
    const outside = await readTool.checkPermissions({ file_path: '/etc/hosts' }, env.ctx);
    expect(outside).toEqual({
      behavior: 'ask',
      reason: 'Read /etc/hosts, outside the project directory',
      suggestions: ['Read(//etc/hosts)', 'Read(//etc/**)'],
    });
    const saved = path.join(env.ctx.wicketHome, 'sessions', env.ctx.sessionId, 'bash-1.log');
    expect((await readTool.checkPermissions({ file_path: saved }, env.ctx)).behavior).toBe('allow');
    const otherSession = path.join(env.ctx.wicketHome, 'sessions', 'another', 'bash-1.log');
    expect((await readTool.checkPermissions({ file_path: otherSession }, env.ctx)).behavior).toBe('ask');
    const added = await readTool.checkPermissions({ file_path: path.join(env.home, 'notes.md') }, { ...env.ctx, additionalDirs: [env.home] });
    expect(added.behavior).toBe('allow');
  });

  it('names the absolute path for permission rules', () => {
    expect(readTool.permissionPaths?.({ file_path: 'a/b.txt' }, env.ctx)).toEqual({ access: 'read', paths: [env.file('a/b.txt')] });
    expect(readTool.permissionPaths?.({ file_path: '~/x' }, env.ctx)).toEqual({ access: 'read', paths: [path.join(env.home, 'x')] });
  });

  it('runs beside other reads: results and read state line up', async () => {
    for (let i = 0; i < 10; i++) writeFileSync(env.file(`f${i}.txt`), `content ${i}\n`);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => runTool(readTool, { file_path: env.file(`f${i}.txt`) }, env.nextCall(), env.state)));
    results.forEach((r, i) => expect(resultText(r.modelResult)).toContain(`1\tcontent ${i}`));
    expect(env.state.readState.size).toBe(10);
  });
});
