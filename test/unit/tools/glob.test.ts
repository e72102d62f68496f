import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { globInputSchema, globTool } from '../../../src/tools/glob/index.js';
import { NewestFiles } from '../../../src/tools/glob/newest.js';
import { planGlob } from '../../../src/tools/glob/pattern.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

/** Files of the fixture, oldest first: each gets an mtime one minute after the previous one. */
const FILES: Array<[string, string | Buffer]> = [
  ['.gitignore', '*.log\nbuild/\n'],
  ['.ignore', 'ignored-by-ignore.ts\n'],
  ['.rgignore', 'ignored-by-rgignore.ts\n'],
  ['.git/config', '[core]\n'],
  ['.git/objects/leak.ts', 'x'],
  ['app.log', 'log'],
  ['build/out.ts', 'x'],
  ['ignored-by-ignore.ts', 'x'],
  ['ignored-by-rgignore.ts', 'x'],
  ['top.ts', 'x'],
  ['src/a.ts', 'x'],
  ['src/b.ts', 'x'],
  ['src/nested/deep/c.ts', 'x'],
  ['src/components/App.tsx', 'x'],
  ['src/components/App.jsx', 'x'],
  ['src/components/App.css', 'x'],
  ['.hidden/h.ts', 'x'],
  ['.env', 'KEY=1'],
  ['bin/blob.bin', Buffer.from([0, 1, 2, 3])],
  ['dir with spaces/file name.ts', 'x'],
  ['ünïcödé/日本語.ts', 'x'],
  ['secrets/key.ts', 'x'],
];

let env: ToolEnv;
const T0 = Date.UTC(2024, 0, 1) / 1000;

beforeAll(() => {
  env = createToolEnv();
  FILES.forEach(([rel, content], i) => {
    const abs = env.file(rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    utimesSync(abs, T0 + i * 60, T0 + i * 60);
  });
  symlinkSync(env.file('src/a.ts'), env.file('link-to-a.ts'));
  symlinkSync(env.file('src'), env.file('linkdir'));
});
afterAll(() => env.cleanup());

async function glob(input: Record<string, unknown>, overrides = {}) {
  const r = await runTool(globTool, input, env.nextCall(overrides));
  return { ...r, text: resultText(r.modelResult), files: r.output.files };
}

describe('Glob', () => {
  it('lists files newest first, honouring ignore files, skipping .git/ and symlinks, keeping hidden files', async () => {
    const { files } = await glob({ pattern: '**/*.ts' });
    expect(files).toEqual([
      'secrets/key.ts',
      'ünïcödé/日本語.ts',
      'dir with spaces/file name.ts',
      '.hidden/h.ts',
      'src/nested/deep/c.ts',
      'src/b.ts',
      'src/a.ts',
      'top.ts',
    ]);
  });

  it('supports brace sets and character classes', async () => {
    expect((await glob({ pattern: 'src/**/*.{jsx,tsx}' })).files).toEqual(['src/components/App.jsx', 'src/components/App.tsx']);
    expect((await glob({ pattern: 'src/components/App.[jt]sx' })).files).toEqual(['src/components/App.jsx', 'src/components/App.tsx']);
  });

  it('matches "*.ts" only in the searched directory, and says how to go deeper when nothing matches', async () => {
    expect((await glob({ pattern: '*.ts' })).files).toEqual(['top.ts']);
    const none = await glob({ pattern: '*.tsx' });
    expect(none.files).toEqual([]);
    expect(none.text).toBe(
      `No files found matching "*.tsx" in ${env.project}.\n"*.tsx" only matches directly inside the searched directory; use "**/*.tsx" to search every level.`,
    );
  });

  it('searches the given path; paths stay relative to the working directory', async () => {
    expect((await glob({ pattern: '*.ts', path: 'src' })).files).toEqual(['src/b.ts', 'src/a.ts']);
    expect((await glob({ pattern: '**/c.ts', path: env.file('src') })).files).toEqual(['src/nested/deep/c.ts']);
  });

  it('shows absolute paths for files outside the working directory', async () => {
    const { files } = await glob({ pattern: '*.ts', path: '..' }, { cwd: env.file('src') });
    expect(files).toEqual([env.file('top.ts')]);
  });

  it('takes an absolute pattern as its own search root', async () => {
    const { files, output } = await glob({ pattern: `${env.file('src')}/**/*.ts`, path: 'ignored-because-pattern-is-absolute' });
    expect(output.root).toBe(env.file('src'));
    expect(files).toEqual(['src/nested/deep/c.ts', 'src/b.ts', 'src/a.ts']);
  });

  it('finds names with spaces and unicode, and a literal file name', async () => {
    expect((await glob({ pattern: 'dir with spaces/*.ts' })).files).toEqual(['dir with spaces/file name.ts']);
    expect((await glob({ pattern: '**/日本語.ts' })).files).toEqual(['ünïcödé/日本語.ts']);
    expect((await glob({ pattern: 'src/nested/deep/c.ts' })).files).toEqual(['src/nested/deep/c.ts']);
  });

  it('includes ignored files only when the pattern names an ignored folder explicitly', async () => {
    expect((await glob({ pattern: '**/out.ts' })).files).toEqual([]);
    expect((await glob({ pattern: 'build/*.ts' })).files).toEqual(['build/out.ts']);
  });

  it('leaves out paths the Read deny rules cover', async () => {
    const { files } = await glob({ pattern: '**/*.ts' }, { settings: { __readDenyGlobs: ['secrets/**', '**/h.ts'] } });
    expect(files).not.toContain('secrets/key.ts');
    expect(files).not.toContain('.hidden/h.ts');
    expect(files).toContain('src/a.ts');
  });

  it('caps the list at 100 with a note on how many matched', async () => {
    for (let i = 0; i < 130; i++) {
      const abs = env.file(`many/f${String(i).padStart(3, '0')}.txt`);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, 'x');
      utimesSync(abs, T0 + 10_000 + i, T0 + 10_000 + i);
    }
    const r = await glob({ pattern: 'many/*.txt' });
    expect(r.files).toHaveLength(100);
    expect(r.files[0]).toBe('many/f129.txt');
    expect(r.files[99]).toBe('many/f030.txt');
    expect(r.text.split('\n').at(-1)).toBe('(Found 130 files; showing first 100, newest first. Narrow the pattern or pass path.)');
    expect(r.display).toMatchObject({ summary: 'Found 130 files (showing 100)', total: 130, truncated: true });
  });

  it('respects .gitignore outside a git repository too', async () => {
    const bare = createToolEnv();
    try {
      writeFileSync(bare.file('.gitignore'), 'skip.ts\n');
      writeFileSync(bare.file('skip.ts'), 'x');
      writeFileSync(bare.file('keep.ts'), 'x');
      const r = await runTool(globTool, { pattern: '*.ts' }, bare.ctx);
      expect(r.output.files).toEqual(['keep.ts']);
    } finally {
      bare.cleanup();
    }
  });

  it('gives the same answer when run beside other calls', async () => {
    const alone = (await glob({ pattern: '**/*' })).files;
    const together = await Promise.all([1, 2, 3, 4].map(() => glob({ pattern: '**/*' })));
    for (const r of together) expect(r.files).toEqual(alone);
  });
});

describe('Glob refusals', () => {
  it('refuses a path that does not exist or is not a directory', async () => {
    const missing = await tryRunTool(globTool, { pattern: '*', path: 'nope' }, env.nextCall());
    expect(missing).toEqual({
      ok: false,
      stage: 'validate',
      message: `Directory does not exist: ${env.file('nope')}. Omit path to search the working directory (${env.project}).`,
    });
    const file = await tryRunTool(globTool, { pattern: '*', path: 'top.ts' }, env.nextCall());
    expect(file).toMatchObject({ ok: false, stage: 'validate', message: expect.stringContaining('Not a directory') });
  });

  it('refuses empty and negated patterns, unknown fields and wrong types', async () => {
    expect(await tryRunTool(globTool, { pattern: ' ' }, env.nextCall())).toMatchObject({ ok: false, stage: 'validate' });
    expect(await tryRunTool(globTool, { pattern: '!*.ts' }, env.nextCall())).toMatchObject({ ok: false, stage: 'validate' });
    expect(await tryRunTool(globTool, { pattern: '*', recursive: true }, env.nextCall())).toMatchObject({ ok: false, stage: 'parse' });
    expect(await tryRunTool(globTool, { pattern: 3 }, env.nextCall())).toMatchObject({ ok: false, stage: 'parse' });
  });

  it('stops with an aborted error when the call is cancelled', async () => {
    const ctx = env.nextCall({ signal: AbortSignal.abort() });
    expect(await tryRunTool(globTool, { pattern: '**/*' }, ctx)).toEqual({ ok: false, stage: 'call', message: 'The search was aborted.' });
  });
});

describe('Glob permissions', () => {
  it('is read-only and concurrency-safe', () => {
    expect(globTool.isReadOnly({ pattern: '*' })).toBe(true);
    expect(globTool.isConcurrencySafe({ pattern: '*' })).toBe(true);
  });

  it('names the search root for the Read rules', () => {
    expect(globTool.permissionPaths!({ pattern: '*.ts', path: 'src' }, env.ctx)).toEqual({ access: 'read', paths: [env.file('src')] });
    expect(globTool.permissionPaths!({ pattern: '/etc/**/*.conf' }, env.ctx)).toEqual({ access: 'read', paths: ['/etc'] });
  });

  it('allows the workspace and asks, with a Read rule to suggest, outside it', async () => {
    expect(await globTool.checkPermissions({ pattern: '**/*' }, env.ctx)).toMatchObject({ behavior: 'allow' });
    expect(await globTool.checkPermissions({ pattern: '*', path: '/etc' }, env.ctx)).toEqual({
      behavior: 'ask',
      reason: 'Glob wants to search /etc, which is outside the workspace.',
      suggestions: ['Read(//etc/**)'],
    });
  });

  it('summarises the call in one line', () => {
    expect(globTool.summary({ pattern: '**/*.ts', path: 'src' })).toBe('Glob **/*.ts in src');
  });
});

describe('Glob schema', () => {
  it('has Claude Code’s field names, both described, nothing else accepted', () => {
    const schema = z.toJSONSchema(globInputSchema) as {
      properties: Record<string, { description?: string }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(schema.properties)).toEqual(['pattern', 'path']);
    expect(Object.values(schema.properties).every((p) => (p.description ?? '').length > 10)).toBe(true);
    expect(schema.required).toEqual(['pattern']);
    expect(schema.additionalProperties).toBe(false);
  });
});

describe('planGlob', () => {
  it('narrows the walk to the literal start of the pattern', () => {
    expect(planGlob('src/**/*.ts', undefined, '/p', '/h')).toEqual({ root: '/p', pattern: 'src/**/*.ts', walkDir: '/p/src' });
    expect(planGlob('./src/*.ts', 'lib', '/p', '/h')).toEqual({ root: '/p/lib', pattern: 'src/*.ts', walkDir: '/p/lib/src' });
    expect(planGlob('**/*.ts', undefined, '/p', '/h')).toEqual({ root: '/p', pattern: '**/*.ts', walkDir: '/p' });
  });

  it('re-roots absolute, home and climbing patterns', () => {
    expect(planGlob('/x/y/*.md', 'ignored', '/p', '/h')).toEqual({ root: '/x/y', pattern: '*.md', walkDir: '/x/y' });
    expect(planGlob('~/notes/**/*.md', undefined, '/p', '/h')).toEqual({ root: '/h/notes', pattern: '**/*.md', walkDir: '/h/notes' });
    expect(planGlob('../other/*.ts', undefined, '/p/q', '/h')).toEqual({ root: '/p/other', pattern: '*.ts', walkDir: '/p/other' });
    expect(planGlob('/x/y/a[1].ts', undefined, '/p', '/h').root).toBe('/x/y');
  });
});

describe('NewestFiles', () => {
  it('keeps the newest entries, ties in path order', () => {
    const top = new NewestFiles(3);
    for (const [p, t] of [
      ['b', 1],
      ['a', 5],
      ['c', 5],
      ['d', 3],
      ['e', 0],
      ['a.x', 5],
    ] as const)
      top.add({ path: p, mtimeMs: t });
    expect(top.list().map((e) => e.path)).toEqual(['a', 'a.x', 'c']);
  });
});
