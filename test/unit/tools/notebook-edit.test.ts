import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notebookEditTool } from '../../../src/tools/notebook-edit/index.js';
import { applyNotebookEdit } from '../../../src/tools/notebook-edit/apply-notebook-edit.js';
import { serializeNotebook, type Notebook } from '../../../src/tools/fs/notebook-format.js';
import { readTool } from '../../../src/tools/read/index.js';
import { versionOf } from '../../../src/base/fs/version.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeEach(() => {
  env = createToolEnv();
});
afterEach(() => env.cleanup());

function sample(): Notebook {
  return {
    cells: [
      { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'Text'] },
      {
        cell_type: 'code',
        execution_count: 3,
        id: 'calc',
        metadata: { tags: ['keep'] },
        outputs: [{ output_type: 'stream', name: 'stdout', text: ['2\n'] }],
        source: ['x = 1 + 1\n', 'print(x)'],
      },
      { cell_type: 'code', execution_count: 4, id: 'plot', metadata: {}, outputs: [], source: 'plot()' },
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

const NB = 'analysis.ipynb';

function writeNotebook(nb: Notebook = sample(), indent: number | string = 1) {
  writeFileSync(env.file(NB), `${JSON.stringify(nb, null, indent)}\n`);
}

function onDisk(): Notebook {
  return JSON.parse(readFileSync(env.file(NB), 'utf8')) as Notebook;
}

async function readNb() {
  await runTool(readTool, { file_path: env.file(NB) }, env.nextCall(), env.state);
}

async function nbEdit(input: Record<string, unknown>) {
  return tryRunTool(notebookEditTool, { notebook_path: env.file(NB), ...input }, env.nextCall(), env.state);
}

async function nbEditOk(input: Record<string, unknown>) {
  return runTool(notebookEditTool, { notebook_path: env.file(NB), ...input }, env.nextCall(), env.state);
}

describe('NotebookEdit', () => {
  it('replaces a cell source, clears its outputs, and leaves everything else byte-identical', async () => {
    writeNotebook();
    await readNb();
    const r = await nbEditOk({ cell_id: 'calc', new_source: 'y = 2\nprint(y)' });
    const after = onDisk();
    const expected = sample();
    expected.cells[1] = { ...expected.cells[1]!, execution_count: null, outputs: [], source: ['y = 2\n', 'print(y)'] };
    expect(readFileSync(env.file(NB), 'utf8')).toBe(`${JSON.stringify(expected, null, 1)}\n`);
    expect(after.cells[1]!.metadata).toEqual({ tags: ['keep'] });
    expect(resultText(r.modelResult)).toBe(`Updated cell calc (code) in ${env.file(NB)}.`);
    expect(r.display?.diff).toContain('-x = 1 + 1\n-print(x)\n+y = 2\n+print(y)\n');
  });

  it('inserts after a cell, or at the start, with a fresh id', async () => {
    writeNotebook();
    await readNb();
    const r = await nbEditOk({ cell_id: 'intro', new_source: 'import os', cell_type: 'code', edit_mode: 'insert' });
    const cells = onDisk().cells;
    expect(cells.map((c) => c.id?.length)).toEqual([5, 8, 4, 4]);
    expect(cells[1]).toEqual({ cell_type: 'code', execution_count: null, id: cells[1]!.id, metadata: {}, outputs: [], source: ['import os'] });
    expect(resultText(r.modelResult)).toMatch(/^Inserted a new code cell [0-9a-f]{8} after cell intro in /);
    // the notebook counts as read at its new version: insert again without a re-read
    await nbEditOk({ new_source: '# Top', cell_type: 'markdown', edit_mode: 'insert' });
    expect(onDisk().cells[0]).toMatchObject({ cell_type: 'markdown', source: ['# Top'] });
  });

  it('deletes a cell', async () => {
    writeNotebook();
    await readNb();
    await nbEditOk({ cell_id: 'plot', new_source: '', edit_mode: 'delete' });
    expect(onDisk().cells.map((c) => c.id)).toEqual(['intro', 'calc']);
  });

  it('changes a cell type on replace', async () => {
    writeNotebook();
    await readNb();
    await nbEditOk({ cell_id: 'calc', new_source: 'Now prose', cell_type: 'markdown' });
    expect(onDisk().cells[1]).toEqual({ cell_type: 'markdown', id: 'calc', metadata: { tags: ['keep'] }, source: ['Now prose'] });
  });

  it('addresses cells without ids as cell-N, and inserts without ids in old notebooks', async () => {
    const old = sample();
    old.nbformat_minor = 4;
    for (const c of old.cells) delete c.id;
    writeNotebook(old, 2);
    await readNb();
    await nbEditOk({ cell_id: 'cell-2', new_source: 'plot(1)' });
    await nbEditOk({ cell_id: 'cell-0', new_source: 'more', cell_type: 'markdown', edit_mode: 'insert' });
    const text = readFileSync(env.file(NB), 'utf8');
    expect(text.startsWith('{\n  "cells": [')).toBe(true);
    const cells = onDisk().cells;
    expect(cells.map((c) => c.id)).toEqual([undefined, undefined, undefined, undefined]);
    expect(cells[1]!.source).toEqual(['more']);
    expect(cells[3]!.source).toEqual(['plot(1)']);
  });

  it('refuses with reasons the model can act on', async () => {
    writeNotebook();
    expect(await nbEdit({ cell_id: 'calc', new_source: 'x' })).toMatchObject({
      ok: false,
      message: 'File has not been read yet. Read it first before writing to it.',
    });
    await readNb();
    expect(await nbEdit({ cell_id: 'nope', new_source: 'x' })).toMatchObject({
      ok: false,
      message: 'Cell "nope" not found in the notebook. Its cells are: intro, calc, plot.',
    });
    expect(await nbEdit({ new_source: 'x' })).toMatchObject({ ok: false, message: 'cell_id is required to replace a cell.' });
    expect(await nbEdit({ new_source: 'x', edit_mode: 'insert' })).toMatchObject({ ok: false, message: expect.stringMatching(/cell_type is required/) });
    expect(await nbEdit({ new_source: 'x', edit_mode: 'sideways' })).toMatchObject({ ok: false, stage: 'parse' });
    writeFileSync(env.file('a.py'), 'x');
    expect(await nbEdit({ notebook_path: env.file('a.py'), cell_id: 'x', new_source: '' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a Jupyter notebook.*Use Edit/),
    });
    expect(await nbEdit({ notebook_path: env.file('missing.ipynb'), cell_id: 'x', new_source: '' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Notebook does not exist/),
    });
  });

  it('refuses a notebook changed since it was read, and invalid JSON', async () => {
    writeNotebook();
    await readNb();
    const changed = sample();
    changed.cells.pop();
    writeNotebook(changed);
    expect(await nbEdit({ cell_id: 'calc', new_source: 'x' })).toMatchObject({ ok: false, message: expect.stringMatching(/modified since it was read/) });
    // A notebook broken on disk (Read refuses it too, so record the read by hand).
    writeFileSync(env.file('bad.ipynb'), '{"cells": [');
    expect(await tryRunTool(readTool, { file_path: env.file('bad.ipynb') }, env.nextCall())).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
    env.state.readState.recordRead(env.file('bad.ipynb'), versionOf(Buffer.from('{"cells": ['), { mtimeMs: 0 }), { offset: 1 });
    expect(await nbEdit({ notebook_path: env.file('bad.ipynb'), cell_id: 'x', new_source: '' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
  });

  it('keeps the notebook valid nbformat JSON with tab indentation and CRLF', async () => {
    const raw = serializeNotebook(sample(), '{\r\n\t"cells": []\r\n}\r\n');
    writeFileSync(env.file(NB), raw);
    await readNb();
    await nbEditOk({ cell_id: 'intro', new_source: '# New title' });
    const text = readFileSync(env.file(NB), 'utf8');
    expect(text.startsWith('{\r\n\t"cells": [\r\n')).toBe(true);
    expect(text.endsWith('}\r\n')).toBe(true);
    expect((JSON.parse(text) as Notebook).cells[0]!.source).toEqual(['# New title']);
  });

  it('is not concurrency-safe, asks by default, and a delete is destructive', async () => {
    const input = { notebook_path: NB, new_source: '', cell_id: 'a', edit_mode: 'delete' as const };
    expect(notebookEditTool.isConcurrencySafe(input)).toBe(false);
    expect(notebookEditTool.isReadOnly(input)).toBe(false);
    expect(notebookEditTool.isDestructive?.(input)).toBe(true);
    expect(await notebookEditTool.checkPermissions(input, env.ctx)).toEqual({
      behavior: 'ask',
      reason: `Edit notebook ${NB}`,
      suggestions: [`Edit(${NB})`],
    });
  });
});

describe('applyNotebookEdit (pure)', () => {
  it('does not touch the notebook it was given', () => {
    const nb = sample();
    const before = JSON.stringify(nb);
    const r = applyNotebookEdit(nb, { cellId: 'intro', newSource: 'x', editMode: 'replace' }, () => 'abcdef01');
    expect(r.ok).toBe(true);
    expect(JSON.stringify(nb)).toBe(before);
  });

  it('never reuses an existing id', () => {
    const ids = ['calc', 'fresh001'];
    const r = applyNotebookEdit(sample(), { newSource: 'x', cellType: 'code', editMode: 'insert' }, () => ids.shift()!);
    expect(r).toMatchObject({ ok: true, cellId: 'fresh001' });
  });
});
