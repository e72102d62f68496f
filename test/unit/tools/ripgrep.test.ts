import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../src/base/errors.js';
import { comparePaths, displayPath, excludeGlobs, isDeniedPath, locateRg, readDenyGlobs } from '../../../src/tools/ripgrep/common.js';
import { LineSplitter } from '../../../src/base/ripgrep/line-splitter.js';
import { isSearchInWorkspace, readRuleFor, searchPermission } from '../../../src/tools/ripgrep/permission.js';
import { runRg } from '../../../src/base/ripgrep/run.js';

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-rg-')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function split(chunks: Array<string | Buffer>, opts: ConstructorParameters<typeof LineSplitter>[0] = {}) {
  const s = new LineSplitter(opts);
  const out: Array<[string, boolean]> = [];
  for (const c of chunks) s.push(typeof c === 'string' ? Buffer.from(c) : c, (l, cut) => void out.push([l, cut]));
  s.flush((l, cut) => void out.push([l, cut]));
  return out;
}

describe('LineSplitter', () => {
  it('joins lines split across chunks and emits the last unterminated line on flush', () => {
    expect(split(['ab', 'c\nde', 'f\n\ng'])).toEqual([
      ['abc', false],
      ['def', false],
      ['', false],
      ['g', false],
    ]);
  });

  it('never splits a multi-byte character that straddles two chunks', () => {
    const bytes = Buffer.from('héllo wörld ✓\n');
    const out = split([bytes.subarray(0, 2), bytes.subarray(2, 12), bytes.subarray(12)]);
    expect(out).toEqual([['héllo wörld ✓', false]]);
  });

  it('splits on NUL for --null lists', () => {
    expect(split(['a b\0c\nd\0', 'e\0'], { delimiter: '\0' })).toEqual([
      ['a b', false],
      ['c\nd', false],
      ['e', false],
    ]);
  });

  it('cuts a line longer than the cap, in one chunk or many, and keeps the next line whole', () => {
    expect(split(['0123456789\nok\n'], { maxLineBytes: 4 })).toEqual([
      ['0123', true],
      ['ok', false],
    ]);
    expect(split(['01', '23', '45', '67\nok\n'], { maxLineBytes: 4 })).toEqual([
      ['0123', true],
      ['ok', false],
    ]);
  });

  it('stops when emit returns false', () => {
    const s = new LineSplitter();
    const seen: string[] = [];
    const more = s.push(Buffer.from('a\nb\nc\n'), (l) => (seen.push(l), l !== 'b'));
    expect(more).toBe(false);
    expect(seen).toEqual(['a', 'b']);
  });
});

describe('runRg', () => {
  const signal = () => new AbortController().signal;

  it('streams every line and reports the exit code', async () => {
    writeFileSync(path.join(dir, 'three.txt'), 'x1\nx2\nx3\n');
    const lines: string[] = [];
    const r = await runRg({ args: ['--no-config', 'x', 'three.txt'], cwd: dir, signal: signal(), timeoutMs: 10_000, onLine: (l) => void lines.push(l) });
    expect(lines).toEqual(['x1', 'x2', 'x3']);
    expect(r).toMatchObject({ exitCode: 0, stopped: false, timedOut: false, lines: 3 });
  });

  it('kills rg when the caller stops, long before the output ends', async () => {
    writeFileSync(path.join(dir, 'many.txt'), 'match\n'.repeat(2_000_000));
    let n = 0;
    const r = await runRg({ args: ['--no-config', 'match', 'many.txt'], cwd: dir, signal: signal(), timeoutMs: 10_000, onLine: () => ++n < 10 });
    expect(r.stopped).toBe(true);
    expect(r.exitCode).toBeNull(); // ended by a signal: rg did not run to the end of its output
    expect(n).toBe(10);
  });

  it('kills rg on abort and rejects with an aborted ToolError', async () => {
    const fifo = path.join(dir, 'blocks.fifo');
    execFileSync('mkfifo', [fifo]);
    const ac = new AbortController();
    const run = runRg({ args: ['--no-config', 'x', fifo], cwd: dir, signal: ac.signal, timeoutMs: 10_000, onLine: () => {} });
    setTimeout(() => ac.abort(), 100);
    await expect(run).rejects.toMatchObject({ name: 'ToolError', code: 'aborted' });
  });

  it('rejects at once when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(runRg({ args: ['x'], cwd: dir, signal: ac.signal, timeoutMs: 1000, onLine: () => {} })).rejects.toBeInstanceOf(ToolError);
  });

  it('kills rg at the time limit and reports timedOut, keeping what was read', async () => {
    const fifo = path.join(dir, 'slow.fifo');
    execFileSync('mkfifo', [fifo]);
    const t0 = performance.now();
    const r = await runRg({ args: ['--no-config', 'x', fifo], cwd: dir, signal: signal(), timeoutMs: 200, onLine: () => {} });
    expect(r.timedOut).toBe(true);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('returns rg errors on stderr with exit code 2', async () => {
    const r = await runRg({ args: ['--no-config', 'foo(', '.'], cwd: dir, signal: signal(), timeoutMs: 10_000, onLine: () => {} });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('regex parse error');
  });

  it('turns a missing executable into an execution_failed ToolError', async () => {
    const run = runRg({ args: [], cwd: dir, signal: signal(), timeoutMs: 1000, onLine: () => {}, command: path.join(dir, 'no-such-rg') });
    await expect(run).rejects.toMatchObject({ code: 'execution_failed' });
  });

  it('rethrows what onLine throws, after killing rg', async () => {
    const run = runRg({
      args: ['--no-config', 'match', 'many.txt'],
      cwd: dir,
      signal: signal(),
      timeoutMs: 10_000,
      onLine: () => {
        throw new Error('boom');
      },
    });
    await expect(run).rejects.toThrow('boom');
  });
});

describe('path order', () => {
  it('sorts like rg --sort path: a folder before a sibling file that extends its name', () => {
    const root = path.join(dir, 'order');
    for (const f of ['a/x', 'a.txt', 'a-b/y', 'B/z', 'b', 'a/b/c', 'é', 'z z/q']) {
      mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      writeFileSync(path.join(root, f), 'hit\n');
    }
    const rgOrder = execFileSync(rgPath, ['--no-config', '--files', '--sort', 'path'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    expect([...rgOrder].reverse().sort(comparePaths)).toEqual(rgOrder);
  });
});

describe('ignore rules and deny globs', () => {
  it('reads only a list of strings from the settings key', () => {
    expect(readDenyGlobs({ __readDenyGlobs: ['secrets/**', 3, '', '# note', '.env'] })).toEqual(['secrets/**', '.env']);
    expect(readDenyGlobs({ __readDenyGlobs: 'secrets/**' })).toEqual([]);
    expect(readDenyGlobs({})).toEqual([]);
  });

  it('always excludes .git, and passes anchored deny globs only when rg runs in the project root', () => {
    expect(excludeGlobs(['secrets/**', '.env', './keys/*.pem', '**/*.key'], true)).toEqual([
      '--glob',
      '!.git',
      '--iglob',
      '!secrets/**',
      '--iglob',
      '!.env',
      '--iglob',
      '!keys/*.pem',
      '--iglob',
      '!**/*.key',
    ]);
    expect(excludeGlobs(['secrets/**', '.env', '**/*.key'], false)).toEqual(['--glob', '!.git', '--iglob', '!.env', '--iglob', '!**/*.key']);
  });

  it('matches a single path against the deny globs, gitignore style', () => {
    const root = '/p';
    expect(isDeniedPath('/p/secrets/a.txt', root, ['secrets/**'])).toBe(true);
    expect(isDeniedPath('/p/sub/.env', root, ['.env'])).toBe(true);
    expect(isDeniedPath('/p/Secrets/A.txt', root, ['secrets/**'])).toBe(true);
    expect(isDeniedPath('/p/src/a.ts', root, ['secrets/**', '.env'])).toBe(false);
    expect(isDeniedPath('/elsewhere/.env', root, ['.env'])).toBe(false);
  });

  it('runs rg in the project root for paths inside it, in the folder itself otherwise', () => {
    expect(locateRg('/p/src', '/p', true)).toEqual({ cwd: '/p', target: 'src', atProjectRoot: true });
    expect(locateRg('/p', '/p/', true)).toEqual({ cwd: '/p', target: '.', atProjectRoot: true });
    expect(locateRg('/q/lib', '/p', true)).toEqual({ cwd: '/q/lib', target: '.', atProjectRoot: false });
    expect(locateRg('/q/lib/a.ts', '/p', false)).toEqual({ cwd: '/q/lib', target: 'a.ts', atProjectRoot: false });
  });

  it('shows paths relative to the cwd when inside it, absolute otherwise', () => {
    expect(displayPath('/p/src/a.ts', '/p')).toBe('src/a.ts');
    expect(displayPath('/p/src/a.ts', '/p/lib')).toBe('/p/src/a.ts');
    expect(displayPath('/p', '/p')).toBe('.');
  });
});

describe('search permission', () => {
  const ctx = (project: string) => ({
    cwd: project,
    projectRoot: project,
    additionalDirs: [path.join(dir, 'extra')],
    homeDir: dir,
    wicketHome: dir,
    sessionId: 's',
    permissionMode: 'default' as const,
    readState: undefined as never,
    env: {},
    settings: {},
  });

  it('suggests a Read rule anchored at the filesystem root', () => {
    expect(readRuleFor('/abs/dir', true)).toBe('Read(//abs/dir/**)');
    expect(readRuleFor('/abs/file.ts', false)).toBe('Read(//abs/file.ts)');
  });

  it('allows the project and additional dirs, asks elsewhere', async () => {
    const project = path.join(dir, 'proj');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    mkdirSync(path.join(dir, 'extra'), { recursive: true });
    expect(await searchPermission('Grep', path.join(project, 'src'), true, ctx(project))).toMatchObject({ behavior: 'allow' });
    expect(await searchPermission('Grep', path.join(dir, 'extra'), true, ctx(project))).toMatchObject({ behavior: 'allow' });
    expect(await searchPermission('Glob', '/usr/share', true, ctx(project))).toEqual({
      behavior: 'ask',
      reason: 'Glob wants to search /usr/share, which is outside the workspace.',
      suggestions: ['Read(//usr/share/**)'],
    });
  });

  it('does not count a symlink that leads out of the workspace as inside it', async () => {
    const project = path.join(dir, 'proj2');
    const outside = path.join(dir, 'outside');
    mkdirSync(project, { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, path.join(project, 'link'));
    expect(await isSearchInWorkspace(path.join(project, 'link'), ctx(project))).toBe(false);
    expect(await isSearchInWorkspace(project, ctx(project))).toBe(true);
  });
});

describe('no stray rg processes', () => {
  it('leaves no rg running after the tests above', () => {
    const ps = execSync('ps -eo args', { encoding: 'utf8' });
    expect(ps.split('\n').filter((l) => l.startsWith(rgPath) && l.includes(dir))).toEqual([]);
  });
});
