/**
 * /diff outside a git repository shows what the session changed since its first checkpoint, file by
 * file as a unified diff: from the project's snapshots (any tool, the shell too) and from the file
 * history (Edit, Write) for the files only it saw.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAtomic } from '../../src/base/fs/atomic-write.js';
import { FileHistory } from '../../src/core/file-history.js';
import { MemoryHistoryStore } from '../../src/core/file-history-store.js';
import { openSnapshots } from '../../src/core/snapshots/open.js';
import { EVERYDAY_COMMANDS } from '../../src/ui/commands/everyday.js';
import type { SessionControl } from '../../src/ui/commands/types.js';
import { baseOptions, emptyLoaded, scriptedClient } from './helpers.js';

let root: string;
let cwd: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-nogit-')));
  cwd = path.join(root, 'p');
  mkdirSync(cwd);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const diff = EVERYDAY_COMMANDS.find((c) => c.name === 'diff')!;

async function run(options: SessionControl['options'], firstCheckpoint?: number): Promise<string> {
  const s = {
    options,
    loaded: emptyLoaded(cwd),
    cwd,
    configDir: root,
    messageCount: 0,
    commands: [],
    traces: [],
    ...(firstCheckpoint === undefined ? {} : { firstCheckpoint }),
  };
  const r = await diff.run('', s as unknown as SessionControl);
  return r.kind === 'info' ? r.text : JSON.stringify(r);
}

describe('/diff without git', () => {
  it('from the file history: each changed file with +/- counts and its unified diff, a new file against /dev/null', async () => {
    writeFileSync(path.join(cwd, 'a.txt'), 'one\ntwo\n');
    const fileHistory = new FileHistory(new MemoryHistoryStore());
    const options = { ...baseOptions(scriptedClient([]), cwd), fileHistory };
    expect(await run(options)).toBe('No changes: nothing has changed the files in this session yet.');
    const c = fileHistory.checkpoint();
    await writeAtomic(path.join(cwd, 'a.txt'), Buffer.from('one\n2\nthree\n'), { history: fileHistory });
    await writeAtomic(path.join(cwd, 'new.txt'), Buffer.from('n\n'), { history: fileHistory });
    const text = await run(options, c);
    expect(text).toContain('Changed in this session (not a git repository');
    expect(text).toContain('  a.txt  +2 -1');
    expect(text).toContain('  new.txt  new');
    expect(text).toContain('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n one\n-two\n+2\n+three');
    expect(text).toContain('--- /dev/null\n+++ b/new.txt');
  });

  it("from the project's snapshots: a change made by the shell (no file history) shows too", async () => {
    writeFileSync(path.join(cwd, 'a.txt'), 'one\n');
    writeFileSync(path.join(cwd, 'gone.txt'), 'bye\n');
    const { snapshots } = openSnapshots({ wicketHome: path.join(root, 'wh'), root: cwd, home: path.join(root, 'home'), sessionId: 's1', env: {} });
    await snapshots!.take(1);
    writeFileSync(path.join(cwd, 'a.txt'), 'one\nmore\n');
    unlinkSync(path.join(cwd, 'gone.txt'));
    const text = await run({ ...baseOptions(scriptedClient([]), cwd), snapshots }, 1);
    expect(text).toContain('  a.txt  +1 -0');
    expect(text).toContain('+more');
    expect(text).toMatch(/--- a\/gone\.txt\n\+\+\+ \/dev\/null/);
  });
});
