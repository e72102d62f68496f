import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/cli/run-prompt.js';
import { addDirCommand, initCommand } from '../../src/ui/commands/project.js';
import type { SessionControl } from '../../src/ui/commands/types.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-projcmd-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function session(): SessionControl {
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const options = { projectRoot: project, homeDir: path.join(dir, 'home'), additionalDirs: [] as string[], state: { cwd: project } };
  return { options, loaded: {}, cwd: project, configDir: '', totals: emptyTotals(), traces: [], commands: [], messageCount: 0 } as unknown as SessionControl;
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
});
