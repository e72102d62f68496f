import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { grepArgs } from '../../../src/tools/grep/args.js';
import { ListBuffer, Pager } from '../../../src/tools/grep/collect.js';
import { globFilter, pruneTypeArgs, splitGlobs } from '../../../src/tools/grep/glob-filter.js';
import { grepModelText, grepSummaryLine, type GrepOutput } from '../../../src/tools/grep/format.js';
import { grepInputSchema, grepTool } from '../../../src/tools/grep/index.js';
import { parseContentLine } from '../../../src/tools/grep/lines.js';
import { type GrepRequest, searchGrep } from '../../../src/tools/grep/search.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const FILES: Record<string, string | Buffer> = {
  '.gitignore': '*.log\nbuild/\n',
  '.ignore': 'ignored-by-ignore.txt\n',
  '.rgignore': 'ignored-by-rgignore.txt\n',
  '.git/config': 'needle in git\n',
  'app.log': 'needle in a log\n',
  'build/out.js': 'needle in build\n',
  'ignored-by-ignore.txt': 'needle\n',
  'ignored-by-rgignore.txt': 'needle\n',
  'a.txt': 'one\nneedle one\ntwo\nthree\nfour\nfive\nNEEDLE six\nseven\n',
  'b.ts': 'const needle = 1;\nexport { needle };\n',
  'c.py': 'needle = 2\n',
  'src/x.ts': 'no match here\n',
  'src/deep/y.ts': 'function needle() {}\n',
  '.hidden/h.txt': 'hidden needle\n',
  'bin/blob.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 0, 1, 2]), Buffer.from('needle')]),
  'dir with spaces/file name.txt': 'needle: with spaces\n',
  'ünïcödé/日本語.txt': 'needle 日本語\n',
  'secrets/key.txt': 'needle secret\n',
  'multi.txt': 'start\nmiddle\nend\n',
  'min.js': `var needle=${'x'.repeat(3000)};`,
  '-dash.txt': '-needle-with-dash\n',
};

let env: ToolEnv;
beforeAll(() => {
  env = createToolEnv();
  for (const [rel, content] of Object.entries(FILES)) {
    mkdirSync(path.dirname(env.file(rel)), { recursive: true });
    writeFileSync(env.file(rel), content);
  }
  symlinkSync(env.file('a.txt'), env.file('link.txt'));
  symlinkSync(env.file('src'), env.file('linkdir'));
});
afterAll(() => env.cleanup());

async function grep(input: Record<string, unknown>, overrides = {}) {
  const r = await runTool(grepTool, input, env.nextCall(overrides));
  return { ...r, text: resultText(r.modelResult), lines: r.output.lines };
}

const ALL_NEEDLE_FILES = [
  '-dash.txt',
  '.hidden/h.txt',
  'a.txt',
  'b.ts',
  'c.py',
  'dir with spaces/file name.txt',
  'min.js',
  'secrets/key.txt',
  'src/deep/y.ts',
  'ünïcödé/日本語.txt',
];

describe('Grep files_with_matches (default)', () => {
  it('lists matching files in path order; ignored, binary, .git/ and symlinked files are left out', async () => {
    const r = await grep({ pattern: 'needle' });
    expect(r.lines).toEqual(ALL_NEEDLE_FILES);
    expect(r.text).toBe(['Found 10 files', ...ALL_NEEDLE_FILES].join('\n'));
    expect(r.display).toMatchObject({ summary: 'Found 10 files', total: 10, more: false });
  });

  it('filters with glob (several, braces, exclusions) and type', async () => {
    expect((await grep({ pattern: 'needle', glob: '*.ts' })).lines).toEqual(['b.ts', 'src/deep/y.ts']);
    expect((await grep({ pattern: 'needle', glob: '*.{ts,py}' })).lines).toEqual(['b.ts', 'c.py', 'src/deep/y.ts']);
    expect((await grep({ pattern: 'needle', glob: '*.py src/**' })).lines).toEqual(['c.py', 'src/deep/y.ts']);
    expect((await grep({ pattern: 'needle', glob: '*.ts,!src' })).lines).toEqual(['b.ts']);
    expect((await grep({ pattern: 'needle', type: 'py' })).lines).toEqual(['c.py']);
    expect((await grep({ pattern: 'needle', type: 'ts', glob: '**/deep/*' })).lines).toEqual(['src/deep/y.ts']);
  });

  it('never lets glob bring back files the ignore rules exclude', async () => {
    expect((await grep({ pattern: 'needle', glob: '*.{txt,log,js}' })).lines).toEqual([
      '-dash.txt',
      '.hidden/h.txt',
      'a.txt',
      'dir with spaces/file name.txt',
      'min.js',
      'secrets/key.txt',
      'ünïcödé/日本語.txt',
    ]);
    expect((await grep({ pattern: 'needle', glob: '**' })).lines).toEqual(ALL_NEEDLE_FILES);
  });

  it('matches path globs against the paths as shown, relative to the working directory', async () => {
    const inSrc = await grep({ pattern: 'needle', glob: 'deep/*.ts', path: '.' }, { cwd: env.file('src') });
    expect(inSrc.lines).toEqual(['deep/y.ts']);
  });

  it('searches a sub-folder with paths relative to the working directory, absolute outside it', async () => {
    expect((await grep({ pattern: 'needle', path: 'src' })).lines).toEqual(['src/deep/y.ts']);
    expect((await grep({ pattern: 'needle', path: '..' }, { cwd: env.file('src') })).lines).toContain(env.file('a.txt'));
  });

  it('pages with head_limit and offset, and says how to get the next page', async () => {
    const first = await grep({ pattern: 'needle', head_limit: 4 });
    const second = await grep({ pattern: 'needle', head_limit: 4, offset: 4 });
    const last = await grep({ pattern: 'needle', head_limit: 4, offset: 8 });
    expect([...first.lines, ...second.lines, ...last.lines]).toEqual(ALL_NEEDLE_FILES);
    expect(first.text.split('\n')[0]).toBe('Found 10 files (showing 1–4)');
    expect(first.text.split('\n').at(-1)).toBe(
      '(Showing entries 1–4 of 10. Pass offset=4 for the next page, or narrow the search with path, glob, type or a more specific pattern.)',
    );
    expect(last.output.more).toBe(false);
    expect((await grep({ pattern: 'needle', offset: 50 })).text).toBe('No results at offset=50: the search has 10 result lines in all.');
  });

  it('says so when nothing matches', async () => {
    expect((await grep({ pattern: 'nothing-matches-this' })).text).toBe(`No matches for "nothing-matches-this" in ${env.project}.`);
  });

  it('leaves out paths the Read deny rules cover, and refuses a denied file given as path', async () => {
    const settings = { __readDenyGlobs: ['SECRETS/**', '.hidden'] };
    const r = await grep({ pattern: 'needle' }, { settings });
    expect(r.lines).not.toContain('secrets/key.txt');
    expect(r.lines).not.toContain('.hidden/h.txt');
    const direct = await tryRunTool(grepTool, { pattern: 'needle', path: 'secrets/key.txt' }, env.nextCall({ settings }));
    expect(direct).toMatchObject({ ok: false, stage: 'call', message: expect.stringContaining('denied by a Read rule') });
  });
});

describe('Grep content', () => {
  it('shows path:line:text, case-sensitive by default', async () => {
    const r = await grep({ pattern: 'needle', output_mode: 'content', path: 'a.txt' });
    expect(r.text).toBe('2:needle one');
    const all = await grep({ pattern: 'needle', output_mode: 'content', glob: '*.ts *.txt' });
    expect(all.lines).toEqual([
      '-dash.txt:1:-needle-with-dash',
      '.hidden/h.txt:1:hidden needle',
      'a.txt:2:needle one',
      'b.ts:1:const needle = 1;',
      'b.ts:2:export { needle };',
      'dir with spaces/file name.txt:1:needle: with spaces',
      'secrets/key.txt:1:needle secret',
      'src/deep/y.ts:1:function needle() {}',
      'ünïcödé/日本語.txt:1:needle 日本語',
    ]);
  });

  it('supports -i, -n false and context lines with -- between groups', async () => {
    expect((await grep({ pattern: 'needle', output_mode: 'content', path: 'a.txt', '-i': true, '-n': false })).lines).toEqual(['needle one', 'NEEDLE six']);
    const ctx = await grep({ pattern: 'needle', output_mode: 'content', glob: 'a.txt', '-i': true, '-C': 1 });
    expect(ctx.lines).toEqual(['a.txt-1-one', 'a.txt:2:needle one', 'a.txt-3-two', '--', 'a.txt-6-five', 'a.txt:7:NEEDLE six', 'a.txt-8-seven']);
    const after = await grep({ pattern: 'six', output_mode: 'content', path: 'a.txt', '-A': 1, '-B': 2 });
    expect(after.lines).toEqual(['5-four', '6-five', '7:NEEDLE six', '8-seven']);
  });

  it('matches across lines with multiline', async () => {
    expect((await grep({ pattern: 'start.middle', output_mode: 'content', path: 'multi.txt' })).text).toContain('No matches');
    const r = await grep({ pattern: 'start.middle', output_mode: 'content', path: 'multi.txt', multiline: true });
    expect(r.lines).toEqual(['1:start', '2:middle']);
  });

  it('shortens very long lines', async () => {
    const r = await grep({ pattern: 'needle', output_mode: 'content', path: 'min.js' });
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]!.length).toBeLessThan(600);
    expect(r.lines[0]).toContain('[... omitted end of long line]');
  });

  it('accepts a pattern that starts with a dash', async () => {
    expect((await grep({ pattern: '-needle-', output_mode: 'content' })).lines).toEqual(['-dash.txt:1:-needle-with-dash']);
  });

  it('tells about a binary file searched on purpose', async () => {
    const r = await grep({ pattern: 'needle', output_mode: 'content', path: 'bin/blob.bin' });
    expect(r.text).toMatch(/binary file matches/);
  });

  it('pages content lines, including the -- separators', async () => {
    const full = await grep({ pattern: 'needle', output_mode: 'content', '-C': 1, '-i': true });
    const pages: string[] = [];
    for (let offset = 0; offset < full.lines.length; offset += 3) {
      pages.push(...(await grep({ pattern: 'needle', output_mode: 'content', '-C': 1, '-i': true, head_limit: 3, offset })).lines);
    }
    expect(pages).toEqual(full.lines);
  });

  it('keeps one page under the character budget even with head_limit 0', async () => {
    writeFileSync(env.file('huge/lines.txt'.replace('/lines.txt', '') + '.txt'), `${'match this line of text\n'.repeat(5000)}`);
    const r = await grep({ pattern: 'match this', output_mode: 'content', path: 'huge.txt', head_limit: 0 });
    expect(r.output.cutAtChars).toBe(true);
    expect(r.text.length).toBeLessThan(31_000);
    expect(r.text.split('\n').at(-1)).toMatch(/^\(Showing lines 1–\d[\d,]* of 5,000 \(cut at 30,000 characters\)\. Pass offset=\d+/);
  });
});

describe('Grep count', () => {
  it('counts matching lines per file with a total', async () => {
    const r = await grep({ pattern: 'needle', output_mode: 'count', glob: '*.{ts,py}', '-i': true });
    expect(r.text).toBe(['b.ts:2', 'c.py:1', 'src/deep/y.ts:1', 'Found 4 matching lines in 3 files.'].join('\n'));
  });
});

describe('Grep errors', () => {
  it('explains an invalid regex in one error', async () => {
    const r = await tryRunTool(grepTool, { pattern: 'foo(' }, env.nextCall());
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.stage).toBe('call');
    expect(r.message).toMatch(/^Invalid regular expression "foo\(" \(ripgrep syntax\):/);
    expect(r.message).toContain('unclosed group');
    expect(r.message).toContain('Escape special characters');
  });

  it('passes on rg’s own words for an unknown type', async () => {
    const r = await tryRunTool(grepTool, { pattern: 'x', type: 'nosuchtype' }, env.nextCall());
    expect(r).toMatchObject({ ok: false, stage: 'call', message: expect.stringContaining('unrecognized file type: nosuchtype') });
  });

  it('refuses a missing path and an empty pattern before running', async () => {
    expect(await tryRunTool(grepTool, { pattern: 'x', path: 'missing' }, env.nextCall())).toEqual({
      ok: false,
      stage: 'validate',
      message: `Path does not exist: ${env.file('missing')}. Omit path to search the working directory (${env.project}).`,
    });
    expect(await tryRunTool(grepTool, { pattern: '' }, env.nextCall())).toMatchObject({ ok: false, stage: 'validate' });
  });

  it('rejects nonsense input at the schema', async () => {
    for (const bad of [
      { pattern: 'x', output_mode: 'lines' },
      { pattern: 'x', '-A': -1 },
      { pattern: 'x', head_limit: 1.5 },
      { pattern: 'x', foo: 1 },
    ]) {
      expect(await tryRunTool(grepTool, bad, env.nextCall())).toMatchObject({ ok: false, stage: 'parse' });
    }
  });

  it('stops with an aborted error when cancelled, before or during the search', async () => {
    const before = await tryRunTool(grepTool, { pattern: 'needle' }, env.nextCall({ signal: AbortSignal.abort() }));
    expect(before).toEqual({ ok: false, stage: 'call', message: 'The search was aborted.' });
    const big = env.file('big');
    mkdirSync(big, { recursive: true });
    for (let i = 0; i < 400; i++) writeFileSync(path.join(big, `f${i}.txt`), 'lorem ipsum dolor\n'.repeat(5000));
    const ac = new AbortController();
    const run = tryRunTool(grepTool, { pattern: '(a|b|c)+z', path: 'big', '-i': true }, env.nextCall({ signal: ac.signal }));
    // Right after the call starts: rg over 36 MB takes longer than this even on a fast machine.
    setTimeout(() => ac.abort(), 1);
    expect(await run).toEqual({ ok: false, stage: 'call', message: 'The search was aborted.' });
  });
});

describe('Grep permissions and classifiers', () => {
  it('is read-only and concurrency-safe, and names its search root', () => {
    expect(grepTool.isReadOnly({ pattern: 'x' })).toBe(true);
    expect(grepTool.isConcurrencySafe({ pattern: 'x' })).toBe(true);
    expect(grepTool.permissionPaths!({ pattern: 'x', path: 'src' }, env.ctx)).toEqual({ access: 'read', paths: [env.file('src')] });
  });

  it('allows the workspace and asks outside it', async () => {
    expect(await grepTool.checkPermissions({ pattern: 'x' }, env.ctx)).toMatchObject({ behavior: 'allow' });
    expect(await grepTool.checkPermissions({ pattern: 'x', path: '/etc/hostname' }, env.ctx)).toEqual({
      behavior: 'ask',
      reason: 'Grep wants to search /etc/hostname, which is outside the workspace.',
      suggestions: ['Read(//etc/hostname)'],
    });
  });

  it('gives the same answer when run beside other calls', async () => {
    const input = { pattern: 'needle', output_mode: 'content', '-i': true };
    const alone = (await grep(input)).lines;
    const together = await Promise.all([1, 2, 3, 4].map(() => grep(input)));
    for (const r of together) expect(r.lines).toEqual(alone);
  });

  it('summarises the call in one line', () => {
    expect(grepTool.summary({ pattern: 'TODO', path: 'src', glob: '*.ts' })).toBe('Grep "TODO" in src (glob *.ts)');
  });
});

describe('buffered and streamed searches agree', () => {
  const modes = [
    { output_mode: 'files_with_matches' },
    { output_mode: 'count' },
    { output_mode: 'content' },
    { output_mode: 'content', '-C': 1, '-i': true },
    { output_mode: 'content', '-n': false, '-A': 2 },
    { output_mode: 'content', '-C': 2, glob: '!b.ts' },
  ] as const;

  for (const extra of modes) {
    it(`gives identical pages for ${JSON.stringify(extra)}`, async () => {
      const req = (offset: number, limit: number): GrepRequest => ({
        input: { pattern: 'needle|one|two', ...extra },
        absTarget: env.project,
        targetIsDir: true,
        offset,
        limit,
        maxChars: 30_000,
      });
      const opts = { projectRoot: env.project, cwd: env.project, denyGlobs: [], signal: new AbortController().signal, timeoutMs: 10_000 };
      for (const [offset, limit] of [
        [0, 0],
        [0, 3],
        [2, 5],
      ] as const) {
        const buffered = await searchGrep(req(offset, limit), opts);
        const streamed = await searchGrep(req(offset, limit), { ...opts, bufferBytes: 1 });
        expect(buffered.strategy).toBe('buffered');
        expect(streamed.strategy).toBe('streamed');
        expect(streamed.lines).toEqual(buffered.lines);
        expect(streamed.more).toBe(buffered.more);
        if (!buffered.more) expect([streamed.total, streamed.matches]).toEqual([buffered.total, buffered.matches]);
      }
    });
  }
});

describe('a huge number of matches', () => {
  it('streams in path order and stops at the page, whatever the total', async () => {
    writeFileSync(env.file('flood.txt'), 'hit\n'.repeat(300_000));
    const r = await grep({ pattern: 'hit', output_mode: 'content', path: '.', glob: 'flood.txt' });
    expect(r.output.strategy).toBe('streamed');
    expect(r.lines).toHaveLength(250);
    expect(r.lines[249]).toBe('flood.txt:250:hit');
    expect(r.output.more).toBe(true);
    expect(r.display?.summary).toBe('Found 250+ lines');
    expect(r.text.split('\n').at(-1)).toBe(
      '(Showing lines 1–250. Pass offset=250 for the next page, or narrow the search with path, glob, type or a more specific pattern.)',
    );
  });
});

describe('schema', () => {
  it('has Claude Code’s field names, all described, nothing else accepted', () => {
    const schema = z.toJSONSchema(grepInputSchema) as {
      properties: Record<string, { description?: string }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(schema.properties)).toEqual([
      'pattern',
      'path',
      'glob',
      'type',
      'output_mode',
      '-A',
      '-B',
      '-C',
      'context',
      '-n',
      '-i',
      'multiline',
      'head_limit',
      'offset',
    ]);
    expect(Object.values(schema.properties).every((p) => (p.description ?? '').length > 10)).toBe(true);
    expect(schema.required).toEqual(['pattern']);
    expect(schema.additionalProperties).toBe(false);
  });
});

describe('model text', () => {
  const base: GrepOutput = {
    mode: 'files_with_matches',
    pattern: 'x',
    root: '/p',
    offset: 0,
    limit: 2,
    maxChars: 30_000,
    durationMs: 1,
    lines: ['a.ts', 'b.ts'],
    more: true,
    nextOffset: 2,
    cutAtChars: false,
    timedOut: false,
    unreadable: false,
    strategy: 'streamed',
  };

  it('says "more than" when a streamed search stopped before the end', () => {
    expect(grepModelText(base)).toBe(
      'Found more than 2 files (showing 1–2)\na.ts\nb.ts\n(Showing entries 1–2. Pass offset=2 for the next page, or narrow the search with path, glob, type or a more specific pattern.)',
    );
    expect(grepSummaryLine(base)).toBe('Found 2+ files');
  });

  it('notes a time-out and unreadable files', () => {
    const text = grepModelText({ ...base, more: false, total: 2, timedOut: true, unreadable: true });
    expect(text).toBe(
      'Found 2 files\na.ts\nb.ts\n(The search timed out; results are incomplete. Narrow it with path, glob or type.)\n(Some files could not be read and were skipped.)',
    );
  });
});

describe('bounded holders', () => {
  it('ListBuffer overflows past its entry cap or byte budget', () => {
    const byCount = new ListBuffer(1_000_000, 2);
    expect([byCount.add('a', 1), byCount.add('b', 1), byCount.add('c', 1)]).toEqual([true, true, false]);
    const byBytes = new ListBuffer(100);
    expect([byBytes.add('a', 1), byBytes.add('b'.repeat(40), 1)]).toEqual([true, false]);
  });

  it('Pager skips the offset, keeps one page and asks to stop one line past it', () => {
    const pager = new Pager(2, 3, 1000);
    const answers = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((l) => pager.push(l));
    expect(answers).toEqual([true, true, true, true, true, false, false]);
    expect(pager.lines).toEqual(['c', 'd', 'e']);
    expect(pager).toMatchObject({ more: true, nextOffset: 5, cutAtChars: false });
  });
});

describe('rg arguments and output parsing', () => {
  it('splits the glob parameter on spaces and on commas outside braces', () => {
    expect(splitGlobs('*.ts,*.tsx  src/** *.{a,b}')).toEqual(['*.ts', '*.tsx', 'src/**', '*.{a,b}']);
    expect(splitGlobs(undefined)).toEqual([]);
  });

  it('filters shown paths: names at any depth, paths whole, exclusions on any folder', () => {
    const f = globFilter('*.ts src/**/*.py !**/gen !*.d.ts')!;
    expect(['a.ts', 'x/y/a.ts', 'src/m/p.py', 'lib/p.py', 'x/gen/a.ts', 'types.d.ts'].filter(f)).toEqual(['a.ts', 'x/y/a.ts', 'src/m/p.py']);
    expect(globFilter('  ')).toBeUndefined();
  });

  it('lets rg prune by file name only when every include glob names files', () => {
    expect(pruneTypeArgs('*.ts src/**/*.{js,jsx}', undefined)).toEqual(['--type-add=wicketglob:*.ts', '--type-add=wicketglob:*.{js,jsx}', '--type=wicketglob']);
    expect(pruneTypeArgs('*.ts src/**', undefined)).toEqual([]);
    expect(pruneTypeArgs('*.ts', 'js')).toEqual([]);
    expect(pruneTypeArgs('!*.ts', undefined)).toEqual([]);
    expect(pruneTypeArgs('src/{a/b,c}.ts', undefined)).toEqual([]);
  });

  it('ends with the exclusions, then the pattern after --regexp=', () => {
    const args = grepArgs({ pattern: '-x', glob: '*.md', output_mode: 'count' }, { target: '.', sorted: true, denyGlobs: ['secrets/**'], atProjectRoot: true });
    expect(args.slice(args.indexOf('--type=wicketglob'))).toEqual(['--type=wicketglob', '--glob', '!.git', '--iglob', '!secrets/**', '--regexp=-x', '--', '.']);
    expect(args).toContain('--sort');
  });

  it('parses match and context lines whatever the path holds', () => {
    expect(parseContentLine('a:b-c.txt\0:12\0:x: y', true)).toEqual({ path: 'a:b-c.txt', body: ':12:x: y' });
    expect(parseContentLine('a.txt\0-3\0-ctx', true)).toEqual({ path: 'a.txt', body: '-3-ctx' });
    expect(parseContentLine('a.txt\0:no numbers', false)).toEqual({ path: 'a.txt', body: ':no numbers' });
    expect(parseContentLine('--', true)).toBe('--');
  });
});
