/** The rewind dialog: the prompts with what a code restore would change, then the choices each point allows. */
import { render } from 'ink-testing-library';
import React from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PromptMark } from '../../src/base/prompt-marks.js';
import { KeyRouterContext, useKeyRouter } from '../../src/ui/key-router.js';
import { RewindDialog, type RewindChoice } from '../../src/ui/RewindDialog.js';
import { fileLabel, previewRestore, type CodePreview } from '../../src/ui/rewind-preview.js';
import { restoreReport } from '../../src/ui/rewind-report.js';
import { FileHistory } from '../../src/core/file-history.js';
import { Rewinder } from '../../src/core/snapshots/rewinder.js';
import { MemoryHistoryStore } from '../../src/core/file-history-store.js';
import { writeAtomic } from '../../src/base/fs/atomic-write.js';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeTheme } from '../../src/ui/theme.js';
import { ViewContext } from '../../src/ui/view-context.js';
import { keys, tick, waitFor } from './helpers.js';

const changed: CodePreview = {
  kind: 'files',
  files: [
    { path: 'src/a.ts', action: 'write', added: 2, removed: 1 },
    { path: 'b.txt', action: 'delete', added: 1, removed: 0 },
  ],
};
const none: CodePreview = { kind: 'files', files: [] };

function open(prompts: PromptMark[], previews: CodePreview[]) {
  const onChoose = vi.fn<(i: number, c: RewindChoice) => void>();
  const onCancel = vi.fn();
  const info = { columns: 90, rows: 30, cwd: '/p', theme: makeTheme({ NO_COLOR: '1' }) };
  // As in the app: one key listener hands the keys to the step on screen.
  function Harness(): React.ReactElement {
    const router = useKeyRouter();
    return (
      <KeyRouterContext.Provider value={router}>
        <ViewContext.Provider value={info}>
          <RewindDialog prompts={prompts} preview={async (i) => previews[i]!} onChoose={onChoose} onCancel={onCancel} maxRows={20} />
        </ViewContext.Provider>
      </KeyRouterContext.Provider>
    );
  }
  const r = render(<Harness />);
  return { ...r, onChoose, onCancel };
}

describe('RewindDialog', () => {
  it('lists the prompts with the files a restore would change; Enter then 1 restores code and conversation', async () => {
    const d = open(
      [
        { text: 'first', checkpoint: 1, at: 0 },
        { text: 'second', checkpoint: 2, at: 2 },
      ],
      [changed, none],
    );
    await waitFor(() => expect(d.lastFrame()).toContain('src/a.ts +2 -1, b.txt +1 -0 (new)'));
    expect(d.lastFrame()).toMatch(/❯ second\s*│\n│\s+No code changes/);
    d.stdin.write(keys.up);
    await waitFor(() => expect(d.lastFrame()).toContain('❯ first'));
    d.stdin.write(keys.enter);
    await waitFor(() => expect(d.lastFrame()).toContain('4. Never mind'));
    const frame = d.lastFrame()!;
    expect(frame).toContain('The code will be restored in 2 files:');
    expect(frame).toContain('Restore code and conversation');
    expect(frame).toContain('Files are restored whatever tool changed them');
    d.stdin.write('1');
    await waitFor(() => expect(d.onChoose).toHaveBeenCalledWith(0, { code: true, conversation: true }));
  });

  it('without code changes only the conversation can go back; Never mind returns to the list, Esc closes it', async () => {
    const d = open([{ text: 'only', checkpoint: 1, at: 0 }], [none]);
    await waitFor(() => expect(d.lastFrame()).toContain('No code changes'));
    d.stdin.write(keys.enter);
    await waitFor(() => expect(d.lastFrame()).toContain('2. Never mind'));
    expect(d.lastFrame()).not.toContain('Restore code');
    d.stdin.write(keys.down);
    await tick();
    d.stdin.write(keys.enter);
    await waitFor(() => expect(d.lastFrame()).toContain('Restore the code and/or the conversation'));
    d.stdin.write(keys.esc);
    await waitFor(() => expect(d.onCancel).toHaveBeenCalled());
    expect(d.onChoose).not.toHaveBeenCalled();
  });

  it('a prompt from before a compaction can only restore code', async () => {
    const d = open([{ text: 'old', checkpoint: 1 }], [changed]);
    await waitFor(() => expect(d.lastFrame()).toContain('src/a.ts +2 -1'));
    d.stdin.write(keys.enter);
    await waitFor(() => expect(d.lastFrame()).toContain('2. Never mind'));
    expect(d.lastFrame()).toContain('1. Restore code');
    expect(d.lastFrame()).toContain('cannot go back past the compaction');
    d.stdin.write(keys.enter);
    await waitFor(() => expect(d.onChoose).toHaveBeenCalledWith(0, { code: true, conversation: false }));
  });

  it('says why the code cannot be restored', async () => {
    const d = open([{ text: 'p', at: 0 }], [{ kind: 'unavailable', reason: 'file checkpointing is off (fileCheckpointingEnabled)' }]);
    await waitFor(() => expect(d.lastFrame()).toContain('Code cannot be restored: file checkpointing is off'));
  });
});

describe('rewind preview and report', () => {
  it('counts the lines changed since the checkpoint, marks new files and files outside the working folder', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-preview-')));
    try {
      const cwd = path.join(root, 'p');
      mkdirSync(cwd);
      writeFileSync(path.join(cwd, 'a.txt'), 'one\ntwo\n');
      writeFileSync(path.join(root, 'out.txt'), 'x\n');
      const h = new FileHistory(new MemoryHistoryStore());
      const c = h.checkpoint();
      await writeAtomic(path.join(cwd, 'a.txt'), Buffer.from('one\n2\nthree\n'), { history: h });
      await writeAtomic(path.join(cwd, 'new.txt'), Buffer.from('n\n'), { history: h });
      await writeAtomic(path.join(root, 'out.txt'), Buffer.from('y\n'), { history: h });
      const p = await previewRestore(new Rewinder(h, undefined), c, cwd);
      expect(p.kind === 'files' && p.files.map(fileLabel)).toEqual([
        'a.txt +2 -1',
        'new.txt +1 -0 (new)',
        `${path.join(root, 'out.txt')} +1 -1 (outside the working folder)`,
      ]);
      expect(await previewRestore(undefined, c, cwd)).toEqual({ kind: 'unavailable', reason: 'file checkpointing is off (fileCheckpointingEnabled)' });
      const report = await h.restore(c);
      expect(restoreReport(report, 'make it so', cwd)).toEqual([
        {
          tone: 'info',
          text: `Restored the code to before "make it so": 2 files restored (a.txt, ${path.join(root, 'out.txt')}); 1 file deleted that did not exist then (new.txt).`,
        },
      ]);
      expect(restoreReport({ restored: [], deleted: [], failed: [{ path: path.join(cwd, 'x'), reason: 'EACCES' }] }, 'p', cwd)).toEqual([
        { tone: 'warning', text: 'The code was not restored to before "p".' },
        { tone: 'warning', text: 'Could not restore x: EACCES' },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
