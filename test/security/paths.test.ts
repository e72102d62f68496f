/**
 * Path tricks against the Read deny rules, through the real gates in bypassPermissions mode (the
 * rules are the only guard): every spelling of the project, of a folder above it, of a denied file
 * (links inside and outside, `..`, /proc aliases, `~`, `$HOME`, double slashes, `./`, trailing slash
 * or space, case, Unicode look-alikes, hard links), for Read, Grep in each output mode, Glob, Write,
 * Edit and NotebookEdit. Each case fails with the route and the leaked bytes; the controls prove
 * that harmless files are still found through the same spellings.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editTool } from '../../src/tools/edit/index.js';
import { globTool } from '../../src/tools/glob/index.js';
import { grepTool } from '../../src/tools/grep/index.js';
import { notebookEditTool } from '../../src/tools/notebook-edit/index.js';
import { readTool } from '../../src/tools/read/index.js';
import { writeTool } from '../../src/tools/write/index.js';
import { assertNoLeak, gated, rulesFrom, type Gated } from './paths-harness.js';
import {
  DENY_RULES,
  deniedFolders,
  homeSpellings,
  keySpellings,
  makeWorld,
  otherDeniedFiles,
  parentSpellings,
  PROJECT_FILES,
  projectSpellings,
  spelled,
  spellingNames,
  type World,
} from './paths-world.js';

let w: World;
let g: Gated;
let startCwd: string;

beforeAll(() => {
  w = makeWorld();
  startCwd = process.cwd();
  // So that /proc/self/cwd names the project, as it does in the wicket process.
  process.chdir(w.project);
  g = gated({
    tools: [readTool, grepTool, globTool, writeTool, editTool, notebookEditTool],
    project: w.project,
    home: w.home,
    rules: rulesFrom(DENY_RULES, path.join(w.project, '.claude', 'settings.json')),
  });
});
afterAll(() => {
  process.chdir(startCwd);
  w.cleanup();
});

/** Runs a call and fails with the route and the leaked bytes if a denied file shows. */
async function attempt(route: string, name: string, input: Record<string, unknown>) {
  const r = await g.call(name, input);
  assertNoLeak(`${name} ${route}`, input, r.text);
  return r;
}

const MODES = ['files_with_matches', 'count', 'content'] as const;
const at = (list: Parameters<typeof spelled>[0], name: string) => spelled(list, w, name);

describe('Grep over every spelling of the project shows the harmless files and no denied one', () => {
  for (const mode of MODES) {
    it.each(spellingNames(projectSpellings))(`${mode}: path %s`, async (name) => {
      const root = at(projectSpellings, name);
      const input = { pattern: 'TOKEN', path: root, output_mode: mode, '-C': mode === 'content' ? 2 : undefined };
      const { text } = await attempt(`path ${name}`, 'Grep', input);
      expect(text).toMatch(mode === 'content' ? /PUBLIC_OK/ : /public\/ok\.txt/);
    });
  }
});

describe('Grep over a folder above the project', () => {
  for (const mode of MODES) {
    it.each(spellingNames(parentSpellings))(`${mode}: path %s`, async (name) => {
      const root = at(parentSpellings, name);
      const { text } = await attempt(`path ${name}`, 'Grep', { pattern: 'TOKEN', path: root, output_mode: mode });
      // `..` is resolved as written: /proc/self/cwd/.. is /proc/self, not the project's parent.
      if (!root.startsWith('/proc/')) expect(text).toMatch(mode === 'content' ? /PUBLIC_OUTSIDE/ : /pub\.txt/);
      // The hard link beside the project is the denied key file under another name.
      expect(text).not.toContain('hard-zq9');
    });
  }
});

describe('Grep over the home folder leaves ~/.ssh out', () => {
  for (const mode of MODES) {
    it.each(spellingNames(homeSpellings))(`${mode}: path %s`, async (name) => {
      const root = at(homeSpellings, name);
      const { text } = await attempt(`path ${name}`, 'Grep', { pattern: 'TOKEN', path: root, output_mode: mode });
      expect(text).toMatch(mode === 'content' ? /PUBLIC_HOME/ : /notes\.txt/);
    });
  }
});

describe('Grep rooted at a denied file or folder, however spelled, shows nothing of it', () => {
  it.each(spellingNames(keySpellings))('the key file as %s', async (name) => {
    const root = at(keySpellings, name);
    await Promise.all(MODES.map((mode) => attempt(`path ${name} (${mode})`, 'Grep', { pattern: 'TOKEN', path: root, output_mode: mode })));
  });
  it.each(spellingNames(otherDeniedFiles))('%s', async (name) => {
    const root = at(otherDeniedFiles, name);
    await attempt(`path ${name}`, 'Grep', { pattern: 'TOKEN', path: root, output_mode: 'content' });
  });
  it.each(spellingNames(deniedFolders))('folder %s', async (name) => {
    const root = at(deniedFolders, name);
    await Promise.all(MODES.map((mode) => attempt(`path ${name} (${mode})`, 'Grep', { pattern: 'TOKEN', path: root, output_mode: mode })));
  });
});

describe('Grep with a glob or type that aims at denied files finds nothing of them', () => {
  const globs = [
    'secret/**',
    '**/secret/**',
    '**/zq9*',
    '*.pem',
    '**/.env',
    '.env',
    '**/*',
    'innocent/*',
    '*',
    '{secret,public}/**',
    'SECRET/**',
    '**/*.ipynb',
  ];
  it.each(globs)('glob %s over the project and over its parent', async (glob) => {
    const calls = [undefined, '..'].flatMap((root) =>
      MODES.map((mode) => attempt(`glob ${glob} path ${root} (${mode})`, 'Grep', { pattern: 'TOKEN', glob, path: root, output_mode: mode })),
    );
    await Promise.all(calls);
  });
  it('a pattern that matches only denied files says there are no matches', async () => {
    for (const root of [undefined, '/proc/self/cwd', '..', w.root]) {
      const { text } = await attempt(`SECRET_CONTENT in ${root}`, 'Grep', { pattern: 'SECRET_CONTENT', path: root, output_mode: 'files_with_matches' });
      expect(text).toMatch(/^No matches/);
    }
  });
  it('multiline and case-insensitive searches leave them out too', async () => {
    await attempt('multiline', 'Grep', { pattern: 'TOKEN=.*\\n?', multiline: true, path: '/proc/self/cwd', output_mode: 'content' });
    await attempt('-i', 'Grep', { pattern: 'secret_content', '-i': true, path: '..', output_mode: 'content' });
    await attempt('type', 'Grep', { pattern: 'TOKEN', type: 'txt', path: w.root, output_mode: 'count' });
  });
});

describe('Glob shows no denied name', () => {
  const patterns = ['**/*', '**/zq9*', 'secret/**', '**/.env'];
  it.each(spellingNames(projectSpellings))('over the project as %s', async (name) => {
    const root = at(projectSpellings, name);
    const results = await Promise.all(patterns.map((pattern) => attempt(`pattern ${pattern} path ${name}`, 'Glob', { pattern, path: root })));
    expect(results[0]!.text).toContain('ok.txt');
  });
  it.each(spellingNames(parentSpellings))('over a folder above the project, as %s', async (name) => {
    const root = at(parentSpellings, name);
    const { text } = await attempt(`path ${name}`, 'Glob', { pattern: '**/*', path: root });
    if (root.startsWith('/proc/')) return;
    expect(text).toContain('pub.txt');
    expect(text).toContain('ok.txt');
  });
  it('with the root inside the pattern', async () => {
    const P = w.project;
    const rooted = [
      `${P}/secret/*`,
      `${P}/**/*`,
      '/proc/self/cwd/**/*',
      '/proc/self/cwd/secret/**',
      `/proc/self/root${P}/**/*`,
      `/proc/${w.pid}/cwd/**`,
      '../project/secret/*',
      '../**/*',
      '~/.ssh/*',
      '~/**/*',
      `${w.homeLink}/**/*`,
      `${w.outside}/link-to-secret/*`,
      `${w.outside}/**/*`,
      `${w.outside}/link-to-project/**/*`,
      `${P}//secret//*`,
    ];
    await Promise.all(rooted.map((pattern) => attempt(`pattern ${pattern}`, 'Glob', { pattern })));
    const { text } = await attempt('control', 'Glob', { pattern: '/proc/self/cwd/**/*' });
    expect(text).toContain('ok.txt');
  });
  it('rooted at a denied folder, however spelled', async () => {
    const roots = [
      'secret',
      'SECRET',
      'secret/',
      '/proc/self/cwd/secret',
      'innocent',
      path.join(w.outside, 'link-to-secret'),
      '~/.ssh',
      path.join(w.outside, 'link-to-ssh'),
      'cafe\u0301',
      'MixedCase',
    ];
    await Promise.all(roots.map((root) => attempt(`path ${root}`, 'Glob', { pattern: '**/*', path: root })));
  });
});

describe('Read of a denied file, however spelled, is refused', () => {
  it.each(spellingNames(keySpellings))('the key file as %s', async (name) => {
    const file = at(keySpellings, name);
    const { outcome } = await attempt(`file_path ${name}`, 'Read', { file_path: file });
    expect(outcome.result.isError).toBe(true);
  });
  it.each(spellingNames(otherDeniedFiles))('%s', async (name) => {
    const file = at(otherDeniedFiles, name);
    const { outcome } = await attempt(`file_path ${name}`, 'Read', { file_path: file });
    expect(outcome.result.isError).toBe(true);
  });
  it('the refusal is the same whether the denied file exists or not, and suggests no denied name', async () => {
    const there = await attempt('existing', 'Read', { file_path: 'secret/zq9-key.txt' });
    const missing = await attempt('missing', 'Read', { file_path: 'secret/nope.txt' });
    expect(there.text).toContain('denied');
    expect(missing.text.replace('nope.txt', 'zq9-key.txt')).toBe(there.text);
    // A typo next to a file an exact rule denies: no "did you mean" naming it.
    const exact = gated({
      tools: [readTool],
      project: w.project,
      home: w.home,
      rules: rulesFrom(['Read(./public/ok.txt)'], path.join(w.project, '.claude', 'settings.json')),
    });
    const typo = await exact.call('Read', { file_path: 'public/ok.tx' });
    expect(typo.text).toContain('does not exist');
    expect(typo.text).not.toContain('ok.txt');
  });
  it('controls: harmless files are read through the same spellings', async () => {
    for (const file of [
      'public/ok.txt',
      '/proc/self/cwd/public/ok.txt',
      `/proc/self/root${w.project}/public/ok.txt`,
      path.join(w.outside, 'link-to-project', 'public', 'ok.txt'),
      `${w.project}//public//ok.txt`,
      '~/notes.txt',
    ]) {
      const { text } = await attempt(`control ${file}`, 'Read', { file_path: file });
      expect(text).toMatch(/PUBLIC_(OK|HOME)|unchanged since/);
    }
  });
});

describe('Write, Edit and NotebookEdit cannot reach a denied file through a spelling', () => {
  const targets = (): string[] => [
    'secret/new.txt',
    '/proc/self/cwd/secret/new.txt',
    'innocent/new.txt',
    path.join(w.outside, 'link-to-secret', 'new.txt'),
    path.join(w.outside, 'link-to-project', 'secret', 'new.txt'),
    'SECRET/new.txt',
    '~/.ssh/new.txt',
    `${w.homeLink}/.ssh/new.txt`,
    'readonly/new.txt',
    '/proc/self/cwd/readonly/new.txt',
  ];
  it('Write creates nothing there', async () => {
    for (const file of targets()) {
      const { outcome } = await attempt(`Write ${file}`, 'Write', { file_path: file, content: 'x' });
      expect(outcome.result.isError, file).toBe(true);
    }
    expect(existsSync(w.p('secret/new.txt'))).toBe(false);
    expect(existsSync(path.join(w.home, '.ssh', 'new.txt'))).toBe(false);
    expect(existsSync(w.p('readonly/new.txt'))).toBe(false);
  });
  it('Write and Edit change no denied file', async () => {
    for (const [, file] of keySpellings(w).filter(([n]) => !/look-alike|upper|trailing/.test(n))) {
      await attempt(`Write ${file}`, 'Write', { file_path: file, content: 'overwritten' });
      await attempt(`Edit ${file}`, 'Edit', { file_path: file, old_string: 'TOKEN', new_string: 'X' });
      await attempt(`Edit (create) ${file}`, 'Edit', { file_path: file, old_string: '', new_string: 'X' });
    }
    expect(readFileSync(w.p('secret/zq9-key.txt'), 'utf8')).toBe(PROJECT_FILES['secret/zq9-key.txt']);
    await attempt('Edit readonly', 'Edit', { file_path: '/proc/self/cwd/readonly/edit-denied.txt', old_string: 'TOKEN', new_string: 'X' });
    expect(readFileSync(w.p('readonly/edit-denied.txt'), 'utf8')).toBe(PROJECT_FILES['readonly/edit-denied.txt']);
  });
  it('NotebookEdit shows and changes nothing of a denied notebook', async () => {
    const spellings = [
      'secret/zq9-note.ipynb',
      '/proc/self/cwd/secret/zq9-note.ipynb',
      'innocent/zq9-note.ipynb',
      path.join(w.outside, 'link-to-secret', 'zq9-note.ipynb'),
      `/proc/self/root${w.project}/secret/zq9-note.ipynb`,
    ];
    for (const file of spellings) {
      for (const input of [
        { notebook_path: file, cell_id: 'c1', new_source: 'x' },
        { notebook_path: file, cell_id: 'nope', new_source: 'x' },
        { notebook_path: file, new_source: 'x', cell_type: 'code', edit_mode: 'insert' },
      ]) {
        const { outcome } = await attempt(`NotebookEdit ${file}`, 'NotebookEdit', input);
        expect(outcome.result.isError).toBe(true);
      }
    }
    expect(readFileSync(w.p('secret/zq9-note.ipynb'), 'utf8')).toBe(PROJECT_FILES['secret/zq9-note.ipynb']);
  });
  it('controls: a harmless notebook and file can be changed', async () => {
    await attempt('read nb', 'Read', { file_path: '/proc/self/cwd/public/nb.ipynb' });
    const nb = await attempt('NotebookEdit control', 'NotebookEdit', { notebook_path: '/proc/self/cwd/public/nb.ipynb', cell_id: 'c1', new_source: 'changed' });
    expect(nb.outcome.result.isError).toBeFalsy();
    const wr = await attempt('Write control', 'Write', { file_path: '/proc/self/cwd/public/new.txt', content: 'fine' });
    expect(wr.outcome.result.isError).toBeFalsy();
    expect(readFileSync(w.p('public/new.txt'), 'utf8')).toBe('fine');
  });
});
