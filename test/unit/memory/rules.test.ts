/** `.claude/rules/`: the folder's own order, subfolders and links, and which rules wait for a touch. */
import { opendirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesForTouch, waitingRules } from '../../../src/session/memory/nested.js';
import { discover, rel, tree } from './tree.js';

/** The names in a folder as the file system lists them (not sorted). */
function listed(dir: string): string[] {
  const out: string[] = [];
  const d = opendirSync(dir);
  for (let e = d.readSync(); e; e = d.readSync()) out.push(e.name);
  d.closeSync();
  return out;
}

describe('.claude/rules/', () => {
  it('every .md file, in the folder’s own order, subfolders walked where they are listed', () => {
    const t = tree();
    const names = ['zeta', 'alpha', 'mid', 'beta', 'omega', 'gamma'];
    t.write(t.project, {
      ...Object.fromEntries(names.map((n) => [`.claude/rules/${n}.md`, n])),
      '.claude/rules/sub/x.md': 'x',
      '.claude/rules/notes.txt': 'not md',
    });
    const dir = path.join(t.project, '.claude', 'rules');
    const expected = listed(dir).flatMap((n) => (n === 'sub' ? ['sub/x.md'] : n.endsWith('.md') ? [n] : []));
    expect(rel(t, discover(t).files).map((p) => path.relative('work/proj/.claude/rules', p))).toEqual(expected);
    expect(discover(t).files.every((f) => f.rule)).toBe(true);
  });

  it('a linked rules folder is read through the link, its files named by where they really are', () => {
    const t = tree();
    t.write(t.project, { 'shared/r.md': 'shared rule' });
    t.link('../shared', path.join(t.project, '.claude', 'rules'));
    expect(rel(t, discover(t).files)).toEqual(['work/proj/shared/r.md']);
  });

  it('a rule with paths: waits; what an unconditional rule imports comes with it', () => {
    const t = tree();
    t.write(t.project, {
      '.claude/rules/always.md': 'always @extra.md\n',
      '.claude/rules/extra.md': 'extra\n',
      '.claude/rules/ts.md': '---\npaths: "src/**/*.ts"\n---\nts\n',
    });
    const files = rel(t, discover(t).files).map((p) => path.basename(p));
    expect(files).toContain('always.md');
    expect(files).not.toContain('ts.md');
    expect(rel(t, waitingRules({ cwd: t.project, home: t.home, configDir: t.configDir, managedDir: t.managed, deniedBy: () => undefined }))).toEqual([
      'work/proj/.claude/rules/ts.md',
    ]);
  });

  it('a project rule linked to a file outside the working directory is left out, as an import from outside would be, until such imports are approved', () => {
    const t = tree();
    t.write(t.root, { 'shared/out.md': 'outside\n', 'shared/rules/dir.md': 'outside folder\n', 'home/shared/user.md': 'user link\n' });
    t.write(t.project, { 'docs/in.md': 'inside\n' });
    t.link(path.join(t.root, 'shared/out.md'), path.join(t.project, '.claude/rules/out.md'));
    t.link(path.join(t.root, 'shared/rules'), path.join(t.project, '.claude/rules/linked'));
    t.link(path.join(t.project, 'docs/in.md'), path.join(t.project, '.claude/rules/in.md'));
    t.link(path.join(t.home, 'shared/user.md'), path.join(t.configDir, 'rules/user.md'));
    const found = discover(t);
    expect(rel(t, found.files).sort()).toEqual(['home/shared/user.md', 'work/proj/docs/in.md']);
    expect(found.skipped.map((s) => rel(t, [s])[0]).sort()).toEqual(['shared/out.md', 'shared/rules/dir.md']);
    expect(found.skipped[0]!.reason).toMatch(/^a rule linked from .*, outside the working directory/);
    expect(rel(t, discover(t, { externalApproved: true }).files).sort()).toEqual([
      'home/shared/user.md',
      'shared/out.md',
      'shared/rules/dir.md',
      'work/proj/docs/in.md',
    ]);
  });

  it('a rules folder that is itself a link out of the working directory gives nothing; one in a parent folder counts too', () => {
    const t = tree();
    t.write(t.root, { 'shared/rules/r.md': 'linked folder\n' });
    t.link(path.join(t.root, 'shared/rules'), path.join(t.project, '.claude/rules'));
    expect(rel(t, discover(t).files)).toEqual([]);
    const app = path.join(t.project, 'app');
    t.write(t.root, { 'work/.claude/rules/plain.md': 'plain parent rule\n', 'work/docs/l.md': 'linked sibling\n' });
    t.link(path.join(t.root, 'work/docs/l.md'), path.join(t.root, 'work/.claude/rules/l.md'));
    t.write(app, { 'x.ts': 'x' });
    expect(rel(t, discover(t, { cwd: app }).files)).toEqual(['work/.claude/rules/plain.md']);
  });

  it('a conditional rule linked out of the working directory is never given on a touch, approved or not', () => {
    const t = tree();
    t.write(t.root, { 'shared/ts.md': '---\npaths: src/**\n---\nts\n' });
    t.write(t.project, { 'src/a.ts': 'a', '.claude/rules/own.md': '---\npaths: src/**\n---\nown\n' });
    t.link(path.join(t.root, 'shared/ts.md'), path.join(t.project, '.claude/rules/ts.md'));
    const o = { cwd: t.project, home: t.home, configDir: t.configDir, managedDir: t.managed, deniedBy: () => undefined, externalApproved: true };
    expect(rel(t, filesForTouch(path.join(t.project, 'src/a.ts'), o))).toEqual(['work/proj/.claude/rules/own.md']);
  });
});
