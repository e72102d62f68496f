/** File checkpoints: what the file tools change is saved before the change, and can be put back to any prompt. */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileHistory } from '../../../src/core/file-history.js';
import { DiskHistoryStore, MemoryHistoryStore } from '../../../src/core/file-history-store.js';
import { editTool } from '../../../src/tools/edit/index.js';
import { notebookEditTool } from '../../../src/tools/notebook-edit/index.js';
import { readTool } from '../../../src/tools/read/index.js';
import { writeTool } from '../../../src/tools/write/index.js';
import { createToolEnv, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
let history: FileHistory;
const historyDir = () => path.join(env.home, '.wicket', 'file-history', 'test-session');

beforeEach(() => {
  env = createToolEnv();
  history = new FileHistory(new DiskHistoryStore(historyDir()));
});
afterEach(() => env.cleanup());

const call = () => env.nextCall({ fileHistory: history });
const text = (rel: string) => readFileSync(env.file(rel), 'utf8');

async function write(rel: string, content: string) {
  await runTool(writeTool, { file_path: env.file(rel), content }, call(), env.state);
}

async function edit(rel: string, from: string, to: string) {
  await runTool(readTool, { file_path: env.file(rel) }, call(), env.state);
  await runTool(editTool, { file_path: env.file(rel), old_string: from, new_string: to }, call(), env.state);
}

describe('file history: record and restore', () => {
  it('puts every file back to its state at each checkpoint, deleting files that did not exist then', async () => {
    writeFileSync(env.file('a.txt'), 'a0\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'a0', 'a1');
    const c2 = history.checkpoint();
    await edit('a.txt', 'a1', 'a2');
    await write('b.txt', 'b2\n');
    const c3 = history.checkpoint();
    await write('b.txt', 'b3\n');
    expect([text('a.txt'), text('b.txt')]).toEqual(['a2\n', 'b3\n']);

    let report = await history.restore(c3, env.state.readState);
    expect(report).toEqual({ restored: [env.file('b.txt')], deleted: [], failed: [] });
    expect([text('a.txt'), text('b.txt')]).toEqual(['a2\n', 'b2\n']);

    report = await history.restore(c2, env.state.readState);
    expect(report.restored).toEqual([env.file('a.txt')]);
    expect(report.deleted).toEqual([env.file('b.txt')]);
    expect(text('a.txt')).toBe('a1\n');
    expect(existsSync(env.file('b.txt'))).toBe(false);

    await history.restore(c1, env.state.readState);
    expect(text('a.txt')).toBe('a0\n');
    // Forward again: a later checkpoint still knows its states.
    await history.restore(c3, env.state.readState);
    expect([text('a.txt'), text('b.txt')]).toEqual(['a2\n', 'b2\n']);
  });

  it('a file created after a checkpoint is deleted by restoring to it; its folder stays', async () => {
    const c1 = history.checkpoint();
    await write('new/dir/made.txt', 'hello\n');
    const plan = await history.plan(c1);
    expect(plan.ok && plan.changes.map((c) => [path.basename(c.path), c.action])).toEqual([['made.txt', 'delete']]);
    const report = await history.restore(c1);
    expect(report.deleted).toEqual([env.file('new/dir/made.txt')]);
    expect(existsSync(env.file('new/dir/made.txt'))).toBe(false);
    expect(existsSync(env.file('new/dir'))).toBe(true);
  });

  it('repeated edits of a file in one turn keep only its first state', async () => {
    writeFileSync(env.file('a.txt'), 'one\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'one', 'two');
    await edit('a.txt', 'two', 'three');
    await write('a.txt', 'four\n');
    const manifest = JSON.parse(readFileSync(path.join(historyDir(), 'checkpoints.json'), 'utf8'));
    expect(manifest.checkpoints).toHaveLength(1);
    expect(Object.keys(manifest.checkpoints[0].files)).toEqual([env.file('a.txt')]);
    expect(readdirSync(historyDir()).filter((f) => f !== 'checkpoints.json')).toHaveLength(1);
    await history.restore(c1);
    expect(text('a.txt')).toBe('one\n');
  });

  it('a file no tool changed since the checkpoint is left alone, even if Bash or a person changed it', async () => {
    writeFileSync(env.file('a.txt'), 'a0\n');
    writeFileSync(env.file('other.txt'), 'mine\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'a0', 'a1');
    writeFileSync(env.file('other.txt'), 'changed by hand\n');
    await history.restore(c1);
    expect(text('a.txt')).toBe('a0\n');
    expect(text('other.txt')).toBe('changed by hand\n');
  });

  it('a restore to where the files already are changes nothing', async () => {
    writeFileSync(env.file('a.txt'), 'a0\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'a0', 'a1');
    history.checkpoint();
    expect(await history.restore(c1)).toEqual({ restored: [env.file('a.txt')], deleted: [], failed: [] });
    expect(await history.restore(c1)).toEqual({ restored: [], deleted: [], failed: [] });
  });

  it('NotebookEdit is tracked too', async () => {
    const nb = {
      cells: [{ cell_type: 'code', id: 'c1', metadata: {}, source: ['x = 1'], outputs: [], execution_count: null }],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    };
    const before = `${JSON.stringify(nb, null, 1)}\n`;
    writeFileSync(env.file('n.ipynb'), before);
    const c1 = history.checkpoint();
    await runTool(readTool, { file_path: env.file('n.ipynb') }, call(), env.state);
    await runTool(notebookEditTool, { notebook_path: env.file('n.ipynb'), cell_id: 'c1', new_source: 'x = 2' }, call(), env.state);
    expect(text('n.ipynb')).not.toBe(before);
    await history.restore(c1);
    expect(text('n.ipynb')).toBe(before);
  });
});

describe('file history: the read state after a restore', () => {
  it('a restored file must be read again before the next Edit', async () => {
    writeFileSync(env.file('a.txt'), 'a0\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'a0', 'a1');
    expect(env.state.readState.get(env.file('a.txt'))).toBeDefined();
    await history.restore(c1, env.state.readState);
    expect(env.state.readState.get(env.file('a.txt'))).toBeUndefined();
    const r = await tryRunTool(editTool, { file_path: env.file('a.txt'), old_string: 'a0', new_string: 'x' }, call(), env.state);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain('has not been read yet');
  });
});

describe('file history: a resumed session', () => {
  it('a new history on the same folder restores what an earlier run saved, and goes on from it', async () => {
    writeFileSync(env.file('a.txt'), 'a0\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'a0', 'a1');
    const c2 = history.checkpoint();
    await edit('a.txt', 'a1', 'a2');

    history = new FileHistory(new DiskHistoryStore(historyDir()));
    const c3 = history.checkpoint();
    expect(c3).toBeGreaterThan(c2);
    await edit('a.txt', 'a2', 'a3');
    await history.restore(c2);
    expect(text('a.txt')).toBe('a1\n');
    await history.restore(c3);
    expect(text('a.txt')).toBe('a2\n');
    await history.restore(c1);
    expect(text('a.txt')).toBe('a0\n');
  });

  it('right after a resume, before any prompt, a restore can itself be undone by a later one', async () => {
    writeFileSync(env.file('a.txt'), 'a0\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'a0', 'a1');
    const c2 = history.checkpoint();
    history = new FileHistory(new DiskHistoryStore(historyDir()));
    await history.restore(c1);
    expect(text('a.txt')).toBe('a0\n');
    await history.restore(c2);
    expect(text('a.txt')).toBe('a1\n');
  });

  it('a forked session starts from a copy of its parent’s history', async () => {
    writeFileSync(env.file('a.txt'), 'a0\n');
    const c1 = history.checkpoint();
    await edit('a.txt', 'a0', 'a1');
    const forkDir = path.join(env.home, '.wicket', 'file-history', 'fork');
    const fork = new FileHistory(new DiskHistoryStore(forkDir, historyDir()));
    fork.checkpoint();
    await fork.restore(c1);
    expect(text('a.txt')).toBe('a0\n');
    expect(existsSync(path.join(forkDir, 'checkpoints.json'))).toBe(true);
  });

  it('a damaged manifest is a history that starts over, not a crash', async () => {
    mkdirSync(historyDir(), { recursive: true });
    writeFileSync(path.join(historyDir(), 'checkpoints.json'), '{"version":1,"checkpoints":[{"id":1,"files":{"../x":{"backup":"../../etc/passwd"}}}]');
    history = new FileHistory(new DiskHistoryStore(historyDir()));
    const c = history.checkpoint();
    await write('a.txt', 'x\n');
    expect((await history.restore(c)).deleted).toEqual([env.file('a.txt')]);
  });
});

describe('file history: files it cannot save or put back', () => {
  it('an unreadable file is reported, never deleted, and the edit still happens', async () => {
    if (process.getuid?.() === 0) return; // root reads everything
    writeFileSync(env.file('locked.txt'), 'secret\n');
    chmodSync(env.file('locked.txt'), 0o200);
    const c1 = history.checkpoint();
    await history.beforeWrite(env.file('locked.txt'));
    chmodSync(env.file('locked.txt'), 0o600);
    writeFileSync(env.file('locked.txt'), 'changed\n');
    const report = await history.restore(c1);
    expect(report.restored).toEqual([]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]!.reason).toMatch(/earlier state was not saved: it could not be read/);
    expect(text('locked.txt')).toBe('changed\n');
  });

  it('a path that became a directory is not removed', async () => {
    const c1 = history.checkpoint();
    await write('thing', 'file\n');
    const { rmSync } = await import('node:fs');
    rmSync(env.file('thing'));
    mkdirSync(env.file('thing'));
    const report = await history.restore(c1);
    expect(report.failed[0]!.reason).toContain('is a directory now');
    expect(statSync(env.file('thing')).isDirectory()).toBe(true);
  });

  it('a file outside the project is tracked like any other; a folder it cannot write is a reason, not a crash', async () => {
    const outside = path.join(env.root, 'outside.txt');
    writeFileSync(outside, 'o0\n');
    const c1 = history.checkpoint();
    await runTool(readTool, { file_path: outside }, call(), env.state);
    await runTool(editTool, { file_path: outside, old_string: 'o0', new_string: 'o1' }, call(), env.state);
    await history.restore(c1);
    expect(readFileSync(outside, 'utf8')).toBe('o0\n');

    if (process.getuid?.() === 0) return;
    const c2 = history.checkpoint();
    mkdirSync(path.join(env.root, 'ro'));
    await write('../ro/x.txt', 'x\n');
    chmodSync(path.join(env.root, 'ro'), 0o500);
    try {
      const report = await history.restore(c2);
      expect(report.failed.map((f) => f.path)).toEqual([path.join(env.root, 'ro', 'x.txt')]);
      expect(report.failed[0]!.reason).toMatch(/EACCES|permission denied/i);
    } finally {
      chmodSync(path.join(env.root, 'ro'), 0o700);
    }
  });

  it('keeps the last checkpoints only; an older point is refused with a reason', async () => {
    history = new FileHistory(new MemoryHistoryStore(), 2);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(history.checkpoint());
      await write('a.txt', `v${i}\n`);
    }
    expect(history.canRestore(ids[0]!)).toBe(false);
    expect((await history.restore(ids[1]!)).refused).toMatch(/older than the 2 checkpoints kept/);
    expect(history.canRestore(ids[2]!)).toBe(true);
    await history.restore(ids[2]!);
    expect(text('a.txt')).toBe('v1\n');
  });

  it('writes outside a checkpoint are not recorded', async () => {
    await write('a.txt', 'x\n');
    expect(existsSync(historyDir())).toBe(false);
  });
});
