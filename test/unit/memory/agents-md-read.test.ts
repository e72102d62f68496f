/** A subfolder's AGENTS.md, given when the model reads a file under it, as Claude Code 2.1's agents-md part gives it. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsForRead } from '../../../src/session/memory/agents-md-read.js';
import { SessionInstructions } from '../../../src/session/memory/session-instructions.js';
import { rel, type Tree, tree } from './tree.js';

const where = (t: Tree) => ({ cwd: t.project, home: t.home, configDir: t.configDir, managedDir: t.managed, deniedBy: () => undefined });

function project(t: Tree, files: Record<string, string> = {}): void {
  t.write(t.project, {
    'AGENTS.md': 'root agents',
    'a/AGENTS.md': 'A agents @inc.md\n',
    'a/inc.md': 'A included',
    'a/b/.claude/AGENTS.md': 'B dot agents',
    'a/b/x.py': 'print(1)',
    'c/CLAUDE.md': 'C claude',
    'c/AGENTS.md': 'C agents',
    'c/y.py': 'print(2)',
    ...files,
  });
}

describe('AGENTS.md on read', () => {
  it('each folder between the working directory and the file, from the top, with imports; not a folder that has a CLAUDE.md; not the file read itself', () => {
    const t = tree();
    project(t);
    const x = path.join(t.project, 'a', 'b', 'x.py');
    expect(rel(t, agentsForRead(x, where(t)))).toEqual(['work/proj/a/AGENTS.md', 'work/proj/a/inc.md', 'work/proj/a/b/.claude/AGENTS.md']);
    expect(agentsForRead(path.join(t.project, 'c', 'y.py'), where(t))).toEqual([]);
    expect(rel(t, agentsForRead(path.join(t.project, 'a', 'AGENTS.md'), where(t)))).toEqual([]);
    expect(rel(t, agentsForRead(x, { ...where(t), agentsMode: 'claude-md-and-agents-md' }))).toHaveLength(3);
    expect(rel(t, agentsForRead(path.join(t.project, 'c', 'y.py'), { ...where(t), agentsMode: 'claude-md-and-agents-md' }))).toEqual(['work/proj/c/AGENTS.md']);
  });

  it('none in a project with a CLAUDE.md up to the working directory (default mode), nor in claude-md or managed-only mode', () => {
    const t = tree();
    project(t, { 'CLAUDE.local.md': 'local' });
    const x = path.join(t.project, 'a', 'b', 'x.py');
    expect(agentsForRead(x, where(t))).toEqual([]);
    expect(agentsForRead(x, { ...where(t), agentsMode: 'claude-md' })).toEqual([]);
    expect(rel(t, agentsForRead(x, { ...where(t), agentsMode: 'claude-md-and-agents-md' }))).toHaveLength(3);
    const bare = tree();
    project(bare);
    expect(agentsForRead(path.join(bare.project, 'a', 'b', 'x.py'), { ...where(bare), agentsMode: 'managed-only' })).toEqual([]);
  });

  it('comes on a read, not an edit or a write; once per conversation; as a Contents-of reminder', () => {
    const t = tree();
    project(t);
    const talk = new SessionInstructions(where(t)).conversation();
    const x = path.join(t.project, 'a', 'b', 'x.py');
    expect(talk.touched([x]).given).toEqual([]);
    const read = talk.touched([x], () => false, [x]);
    expect(read.given.map((g) => path.relative(t.project, g.file.path))).toEqual(['a/AGENTS.md', 'a/inc.md', 'a/b/.claude/AGENTS.md']);
    const p = (f: string) => path.join(t.project, f);
    expect(read.blocks).toEqual([
      `<system-reminder>\ntool.call hook additional context: Contents of ${p('a/AGENTS.md')}:\n\nA agents @inc.md\n\nContents of ${p('a/inc.md')}:\n\nA included\nContents of ${p('a/b/.claude/AGENTS.md')}:\n\nB dot agents\n</system-reminder>`,
    ]);
    expect(talk.touched([x], () => false, [x]).given).toEqual([]);
  });

  it('after the subfolder CLAUDE.md files and rules of the same touch, in one reminder; an @-mention words it as the prompt’s', () => {
    const t = tree();
    project(t, { 'a/CLAUDE.md': 'A claude\n' });
    const x = path.join(t.project, 'a', 'b', 'x.py');
    const talk = new SessionInstructions({ ...where(t), agentsMode: 'claude-md-and-agents-md' }).conversation();
    const blocks = talk.touched([x], () => false, [x], 'mention').blocks;
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toBe(`<system-reminder>\nContents of ${path.join(t.project, 'a/CLAUDE.md')}:\n\nA claude\n\n</system-reminder>\n`);
    expect(blocks[1]).toMatch(/^<system-reminder>\nprompt\.mention hook additional context: Contents of .*\/a\/AGENTS\.md:\n\nA agents/);
  });

  it('a conversation that goes on counts the files of such a reminder as given', () => {
    const t = tree();
    project(t);
    const x = path.join(t.project, 'a', 'b', 'x.py');
    const first = new SessionInstructions(where(t)).conversation();
    const blocks = first.touched([x], () => false, [x]).blocks;
    const next = new SessionInstructions(where(t)).conversation();
    next.remember(blocks);
    expect(next.touched([x], () => false, [x]).given).toEqual([]);
  });
});
