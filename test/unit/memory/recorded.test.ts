/** A resumed session keeps the instruction files it was first given; those changed since come with the next prompt, as Claude Code sends them. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedInstructions } from '../../../src/session/memory/recorded.js';
import { SessionInstructions } from '../../../src/session/memory/session-instructions.js';
import { type Tree, tree } from './tree.js';

const where = (t: Tree) => ({ cwd: t.project, home: t.home, configDir: t.configDir, managedDir: t.managed, deniedBy: () => undefined });

describe('recorded instruction files', () => {
  it('are read from Claude Code’s instructions attachments and wicket’s own records, in order; the first unchanged one is the head', () => {
    const rec = recordedInstructions([
      { type: 'user', message: { role: 'user', content: 'hi' } },
      { type: 'attachment', attachment: { type: 'instructions', files: [{ path: '/p/CLAUDE.md', type: 'Project', content: 'one' }] } },
      { type: 'attachment', attachment: { type: 'nested_memory', path: '/p/sub/CLAUDE.md' } },
      { type: 'wicket-instructions', files: [{ path: '/p/CLAUDE.md', type: 'Project', content: 'two' }, { path: 'bad' }], changed: true },
    ])!;
    expect(rec.head).toEqual([{ path: '/p/CLAUDE.md', type: 'Project', content: 'one' }]);
    expect([...rec.latest]).toEqual([['/p/CLAUDE.md', 'two']]);
    expect(recordedInstructions([{ type: 'user' }])).toBeUndefined();
  });

  it('a fresh conversation records its start with the first prompt; a resumed one keeps its head and gives what changed once, in Claude Code’s words', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': 'now', 'CLAUDE.local.md': 'local' });
    const session = new SessionInstructions(where(t));
    const fresh = session.conversation();
    expect(fresh.atPrompt().record?.files.map((f) => path.basename(f.path))).toEqual(['CLAUDE.md', 'CLAUDE.local.md']);
    expect(fresh.atPrompt()).toEqual({ blocks: [] });

    const resumed = session.conversation();
    const file = path.join(t.project, 'CLAUDE.md');
    resumed.resumed({ head: [{ path: file, type: 'Project', content: 'before' }], latest: new Map([[file, 'before']]) });
    expect(resumed.startBlocks()[0]).toContain('Contents of');
    expect(resumed.startBlocks()[0]).toContain('\n\nbefore\n</system-reminder>');
    const at = resumed.atPrompt();
    expect(at.blocks).toEqual([
      `<system-reminder>\nInstruction files were re-read when this session started; these differ from their earlier copies \u2014 each replaces its earlier copy, and the instructions preamble above still applies:\n\nContents of ${file} (project instructions, checked into the codebase):\n\nnow\n\nContents of ${path.join(t.project, 'CLAUDE.local.md')} (user's private project instructions, not checked in):\n\nlocal\n</system-reminder>\n`,
    ]);
    expect(at.record).toEqual({ files: expect.any(Array), changed: true });
    expect(resumed.atPrompt()).toEqual({ blocks: [] });
    // A file edited through /memory or # is given as it is now; a compaction starts from the files as they are.
    session.reload();
    expect(resumed.startBlocks()[0]).toContain('\n\nnow\n');
  });
});
