import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/core/run-prompt.js';
import { addDirCommand, initCommand } from '../../src/ui/commands/project.js';
import type { SessionControl } from '../../src/ui/commands/types.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-projcmd-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function session(hooks: Record<string, unknown> = {}, note?: SessionControl['note']): SessionControl {
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const options = { projectRoot: project, homeDir: path.join(dir, 'home'), additionalDirs: [] as string[], state: { cwd: project }, hooks };
  return {
    options,
    loaded: {},
    cwd: project,
    configDir: '',
    totals: emptyTotals(),
    traces: [],
    commands: [],
    messageCount: 0,
    ...(note ? { note } : {}),
  } as unknown as SessionControl;
}

describe('/init and /add-dir', () => {
  it('/init sends the request to write or improve CLAUDE.md', async () => {
    const r = await initCommand.run('', session());
    expect(r).toMatchObject({ kind: 'prompt', text: expect.stringContaining('write a CLAUDE.md file at its root') });
  });

  it('/add-dir opens a folder to the tools for the session, once, and refuses what is not a folder', async () => {
    const s = session();
    mkdirSync(path.join(dir, 'shared', 'lib'), { recursive: true });
    writeFileSync(path.join(dir, 'file.txt'), 'x');
    const added = await addDirCommand.run('../shared/lib', s);
    expect(added).toMatchObject({ kind: 'info', text: expect.stringContaining(`${path.join(dir, 'shared', 'lib')} is open to the tools`) });
    expect(s.options.additionalDirs).toEqual([path.join(dir, 'shared', 'lib')]);
    expect(await addDirCommand.run(path.join(dir, 'shared', 'lib'), s)).toMatchObject({ text: expect.stringContaining('already open') });
    expect(await addDirCommand.run('../file.txt', s)).toMatchObject({ tone: 'error', text: expect.stringContaining('is not a folder') });
    expect(await addDirCommand.run('../nope', s)).toMatchObject({ tone: 'error', text: expect.stringContaining('does not exist') });
    expect(await addDirCommand.run('', s)).toMatchObject({ text: expect.stringContaining(path.join(dir, 'shared', 'lib')) });
  });

  it('/add-dir fires DirectoryAdded (source slash_command) for a folder it opens, not for one already open or inside the project; failures are noted', async () => {
    const calls: unknown[] = [];
    const notes: Array<[string, string | undefined]> = [];
    let finish: (failed: number) => void = () => {};
    const hooks = { directoryAdded: (info: unknown) => (calls.push(info), new Promise<number>((resolve) => (finish = resolve))) };
    const s = session(hooks, (text, tone) => notes.push([text, tone]));
    mkdirSync(path.join(dir, 'other'), { recursive: true });
    mkdirSync(path.join(dir, 'project', 'sub'), { recursive: true });
    // The command does not wait for the hooks.
    expect(await addDirCommand.run('../other', s)).toMatchObject({ kind: 'info', text: expect.stringContaining('is open to the tools') });
    expect(calls).toEqual([{ directory: path.join(dir, 'other'), source: 'slash_command' }]);
    await addDirCommand.run('../other', s);
    await addDirCommand.run('sub', s);
    expect(calls).toHaveLength(1);
    expect(s.options.additionalDirs).toEqual([path.join(dir, 'other')]);
    finish(2);
    await new Promise((r) => setImmediate(r));
    expect(notes).toEqual([['2 DirectoryAdded hooks failed (the debug log has the output).', 'warning']]);
  });
});
