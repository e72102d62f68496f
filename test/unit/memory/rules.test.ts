/** `.claude/rules/`: the folder's own order, subfolders and links, and which rules wait for a touch. */
import { opendirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitingRules } from '../../../src/session/memory/nested.js';
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
});
