/** What touching a file brings (subfolder CLAUDE.md files, rules whose paths match), once per conversation. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesForTouch } from '../../../src/session/memory/nested.js';
import { SessionInstructions } from '../../../src/session/memory/session-instructions.js';
import { rel, type Tree, tree } from './tree.js';

const where = (t: Tree) => ({ cwd: t.project, home: t.home, configDir: t.configDir, managedDir: t.managed, deniedBy: () => undefined });

function project(t: Tree): void {
  t.write(t.configDir, { 'rules/upy.md': '---\npaths: "**/*.py"\n---\nuser py\n' });
  t.write(t.project, {
    'CLAUDE.md': 'root',
    'a/CLAUDE.md': 'A',
    'a/CLAUDE.local.md': 'A local',
    'a/.claude/rules/u.md': 'A always',
    'a/.claude/rules/py.md': '---\npaths: "**/*.py"\n---\nA py\n',
    'a/.claude/rules/js.md': '---\npaths: "**/*.js"\n---\nA js\n',
    'a/b/CLAUDE.md': 'B',
    'a/b/x.py': 'print(1)',
    '.claude/rules/w.md': '---\npaths:\n  - "w/**"\n---\nW rule\n',
  });
}

describe('a touch', () => {
  it('brings user rules that match, then each folder down to the file: CLAUDE.md, local, always-rules, matching rules; then the project’s matching rules', () => {
    const t = tree();
    project(t);
    expect(rel(t, filesForTouch(path.join(t.project, 'a', 'b', 'x.py'), where(t)))).toEqual([
      'home/.claude/rules/upy.md',
      'work/proj/a/CLAUDE.md',
      'work/proj/a/CLAUDE.local.md',
      'work/proj/a/.claude/rules/u.md',
      'work/proj/a/.claude/rules/py.md',
      'work/proj/a/b/CLAUDE.md',
    ]);
    expect(rel(t, filesForTouch(path.join(t.project, 'w', 'new.txt'), where(t)))).toEqual(['work/proj/.claude/rules/w.md']);
  });

  it('of a file outside the working directory brings no subfolder file', () => {
    const t = tree();
    project(t);
    t.write(t.root, { 'else/CLAUDE.md': 'else' });
    expect(filesForTouch(path.join(t.root, 'else', 'f.txt'), where(t))).toEqual([]);
  });

  it('gives each file once per conversation, not what the model read itself, and again after a compaction', () => {
    const t = tree();
    project(t);
    const session = new SessionInstructions(where(t));
    const talk = session.conversation();
    const py = path.join(t.project, 'a', 'b', 'x.py');
    const readByModel = (p: string) => p.endsWith(path.join('a', 'CLAUDE.local.md'));
    const first = talk.touched([py], readByModel);
    expect(first.given.map((g) => path.relative(t.project, g.file.path))).toEqual([
      '../../home/.claude/rules/upy.md',
      'a/CLAUDE.md',
      'a/.claude/rules/u.md',
      'a/.claude/rules/py.md',
      'a/b/CLAUDE.md',
    ]);
    expect(first.given.every((g) => g.trigger === py)).toBe(true);
    expect(talk.touched([py], readByModel).blocks).toEqual([]);
    talk.startOver();
    expect(talk.touched([py]).given).toHaveLength(6);
    // Another conversation (a sub-agent) keeps its own record; Explore and Plan get none.
    expect(talk.forSubagent(false).touched([py]).given).toHaveLength(6);
    expect(talk.forSubagent(true).touched([py]).given).toEqual([]);
  });

  it('a conversation that goes on (resumed) does not get again what its messages already hold', () => {
    const t = tree();
    t.write(t.project, { 'a/CLAUDE.md': 'A text\n', 'a/f.txt': 'x' });
    const talk = new SessionInstructions(where(t)).conversation();
    talk.remember(['unrelated', `<system-reminder>\nContents of ${path.join(t.project, 'a', 'CLAUDE.md')}:\n\nA text\n\n</system-reminder>\n`]);
    expect(talk.touched([path.join(t.project, 'a', 'f.txt')]).given).toEqual([]);
  });

  it('a resumed conversation gets a subfolder file again on its next touch when its text changed since it was given; once', () => {
    const t = tree();
    const claude = path.join(t.project, 'a', 'CLAUDE.md');
    const f = path.join(t.project, 'a', 'f.txt');
    t.write(t.project, { 'a/CLAUDE.md': 'A new\n', 'a/f.txt': 'x' });
    const talk = new SessionInstructions(where(t)).conversation();
    const earlier = `<system-reminder>\nContents of ${claude}:\n\nA old\n\n</system-reminder>`;
    talk.remember([earlier]);
    expect(talk.touched([f]).blocks).toEqual([`<system-reminder>\nContents of ${claude}:\n\nA new\n\n</system-reminder>`]);
    talk.remember([earlier, `<system-reminder>\nContents of ${claude}:\n\nA new\n\n</system-reminder>`]);
    expect(talk.touched([f]).given).toEqual([]);
  });

  it('comes as one reminder per file, joined by line ends, after the tool results', () => {
    const t = tree();
    t.write(t.project, { 'a/CLAUDE.md': 'A text\n', 'a/b/CLAUDE.md': 'no newline', 'a/b/f.txt': 'x' });
    const blocks = new SessionInstructions(where(t)).conversation().touched([path.join(t.project, 'a', 'b', 'f.txt')]).blocks;
    expect(blocks).toEqual([
      `<system-reminder>\nContents of ${path.join(t.project, 'a', 'CLAUDE.md')}:\n\nA text\n\n</system-reminder>\n`,
      `<system-reminder>\nContents of ${path.join(t.project, 'a', 'b', 'CLAUDE.md')}:\n\nno newline\n</system-reminder>`,
    ]);
  });

  it('names a denied file in a note, once, without its text', () => {
    const t = tree();
    t.write(t.project, { 'a/CLAUDE.md': 'zq9-SECRET', 'a/f.txt': 'x', 'a/g.txt': 'y' });
    const session = new SessionInstructions({ ...where(t), deniedBy: (f: string) => (f.includes(`${path.sep}a${path.sep}`) ? 'Read(./a/**)' : undefined) });
    const talk = session.conversation();
    const once = talk.touched([path.join(t.project, 'a', 'f.txt')]).blocks;
    expect(once).toEqual([
      `<system-reminder>\nInstruction files not loaded (a Read deny rule covers each; do not try to read them):\n- ${path.join(t.project, 'a', 'CLAUDE.md')}\n</system-reminder>`,
    ]);
    expect(talk.touched([path.join(t.project, 'a', 'g.txt')]).blocks).toEqual([]);
  });
});
