/** Which instruction files a session starts with, and in what order (Claude Code's precedence). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discover, rel, tree } from './tree.js';

describe('instruction files at the start', () => {
  it('managed, user, then each folder from the top down to the working directory, then auto memory', () => {
    const t = tree();
    t.write(t.managed, { 'CLAUDE.md': 'managed', '.claude/rules/m.md': 'managed rule' });
    t.write(t.configDir, { 'CLAUDE.md': 'user', 'rules/u.md': 'user rule' });
    t.write(t.root, { 'work/CLAUDE.md': 'above the project' });
    t.write(t.project, {
      'CLAUDE.md': 'project',
      '.claude/CLAUDE.md': 'dot claude',
      '.claude/rules/p.md': 'project rule',
      'CLAUDE.local.md': 'local',
      'pkg/app/CLAUDE.md': 'nested: only on touch',
    });
    const memory = path.join(t.root, 'mem');
    t.write(memory, { 'MEMORY.md': '- [a](a.md) — note' });
    const found = discover(t, { managedClaudeMd: 'policy text', autoMemoryDir: memory });
    expect(rel(t, found.files)).toEqual([
      'managed/CLAUDE.md',
      '<managed-settings>',
      'managed/.claude/rules/m.md',
      'home/.claude/CLAUDE.md',
      'home/.claude/rules/u.md',
      'work/CLAUDE.md',
      'work/proj/CLAUDE.md',
      'work/proj/.claude/CLAUDE.md',
      'work/proj/.claude/rules/p.md',
      'work/proj/CLAUDE.local.md',
      'mem/MEMORY.md',
    ]);
    expect(found.files.map((f) => f.type)).toEqual([
      'Managed',
      'Managed',
      'Managed',
      'User',
      'User',
      'Project',
      'Project',
      'Project',
      'Project',
      'Local',
      'AutoMem',
    ]);
  });

  it('a working directory below the project reads every folder on the way, each with its rules and local file', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': 'root', 'pkg/CLAUDE.local.md': 'pkg local', 'pkg/.claude/rules/r.md': 'pkg rule', 'pkg/app/CLAUDE.md': 'app' });
    expect(rel(t, discover(t, { cwd: path.join(t.project, 'pkg', 'app') }).files)).toEqual([
      'work/proj/CLAUDE.md',
      'work/proj/pkg/.claude/rules/r.md',
      'work/proj/pkg/CLAUDE.local.md',
      'work/proj/pkg/app/CLAUDE.md',
    ]);
  });

  it('front matter and HTML comment blocks are not given; an empty file is not given at all', () => {
    const t = tree();
    t.write(t.project, {
      'CLAUDE.md': '---\ntitle: x\n---\nkeep\n<!-- hidden -->\nafter <!-- inline stays -->\n',
      '.claude/CLAUDE.md': '<!-- only a comment -->\n',
    });
    const [only, ...rest] = discover(t).files;
    expect(rest).toEqual([]);
    expect(only!.content).toBe('keep\nafter <!-- inline stays -->\n');
  });

  it('claudeMdExcludes leaves out user, project and local files, never managed ones', () => {
    const t = tree();
    t.write(t.managed, { 'CLAUDE.md': 'managed' });
    t.write(t.configDir, { 'CLAUDE.md': 'user' });
    t.write(t.project, { 'CLAUDE.md': 'project', 'CLAUDE.local.md': 'local', 'vendor/CLAUDE.md': 'x' });
    const found = discover(t, { excludes: ['**/CLAUDE.md', '**/CLAUDE.local.md'] });
    expect(rel(t, found.files)).toEqual(['managed/CLAUDE.md']);
    expect(found.skipped.map((s) => s.reason)).toEqual(['left out by claudeMdExcludes', 'left out by claudeMdExcludes', 'left out by claudeMdExcludes']);
  });

  it('--setting-sources without user, project or local leaves their files out', () => {
    const t = tree();
    t.write(t.configDir, { 'CLAUDE.md': 'user' });
    t.write(t.project, { 'CLAUDE.md': 'project', 'CLAUDE.local.md': 'local' });
    expect(rel(t, discover(t, { sources: { user: false, project: true, local: false } }).files)).toEqual(['work/proj/CLAUDE.md']);
    expect(rel(t, discover(t, { sources: { user: true, project: false, local: true } }).files)).toEqual([
      'home/.claude/CLAUDE.md',
      'work/proj/CLAUDE.local.md',
    ]);
  });

  it('a file found twice (a link to one already read) is given once', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': 'shared text' });
    t.link(path.join(t.project, 'CLAUDE.md'), path.join(t.project, '.claude', 'CLAUDE.md'));
    expect(rel(t, discover(t).files)).toEqual(['work/proj/CLAUDE.md']);
  });

  it('in a linked git worktree inside the main checkout, the main checkout’s project files are left out (its local ones stay)', () => {
    const t = tree();
    t.write(t.project, {
      'CLAUDE.md': 'main checkout',
      'CLAUDE.local.md': 'mine',
      '.git/worktrees/w/commondir': '../..\n',
      '.claude/worktrees/w/.git': `gitdir: ${path.join(t.project, '.git', 'worktrees', 'w')}\n`,
      '.claude/worktrees/w/CLAUDE.md': 'worktree copy',
    });
    const wt = path.join(t.project, '.claude', 'worktrees', 'w');
    expect(rel(t, discover(t, { cwd: wt }).files)).toEqual(['work/proj/CLAUDE.local.md', 'work/proj/.claude/worktrees/w/CLAUDE.md']);
  });

  it('--add-dir folders add their instruction files when asked to', () => {
    const t = tree();
    const other = path.join(t.root, 'other');
    t.write(other, { 'CLAUDE.md': 'other', '.claude/rules/o.md': 'other rule' });
    expect(rel(t, discover(t, { additionalDirs: [other] }).files)).toEqual(['other/CLAUDE.md', 'other/.claude/rules/o.md']);
    expect(rel(t, discover(t).files)).toEqual([]);
  });
});
