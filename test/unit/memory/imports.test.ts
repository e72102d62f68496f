/** `@path` imports: where they resolve, how deep they go, where they are not read, and what is never read. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discover, rel, tree } from './tree.js';

describe('@ imports', () => {
  it('resolve relative to the importing file, each import right after its file, depth first', () => {
    const t = tree();
    t.write(t.project, {
      'CLAUDE.md': 'See @docs/a.md and @./docs/b.md\n',
      'docs/a.md': 'A imports @sub/c.md\n',
      'docs/sub/c.md': 'C\n',
      'docs/b.md': 'B\n',
    });
    const found = discover(t);
    expect(rel(t, found.files)).toEqual(['work/proj/CLAUDE.md', 'work/proj/docs/a.md', 'work/proj/docs/sub/c.md', 'work/proj/docs/b.md']);
    expect(found.files.map((f) => f.parent && path.basename(f.parent))).toEqual([undefined, 'CLAUDE.md', 'a.md', 'CLAUDE.md']);
    expect(found.files[0]!.content).toBe('See @docs/a.md and @./docs/b.md\n');
  });

  it('go five files deep at most: the file and four levels of imports', () => {
    const t = tree();
    const files: Record<string, string> = { 'CLAUDE.md': '@d1.md\n' };
    for (let i = 1; i <= 6; i++) files[`d${i}.md`] = `level ${i} @d${i + 1}.md\n`;
    t.write(t.project, files);
    const found = discover(t);
    expect(rel(t, found.files).map((p) => path.basename(p))).toEqual(['CLAUDE.md', 'd1.md', 'd2.md', 'd3.md', 'd4.md']);
    expect(found.skipped).toEqual([expect.objectContaining({ path: path.join(t.project, 'd5.md'), reason: 'imported more than 4 levels deep' })]);
  });

  it('stop where a cycle closes, and give a file imported twice once', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': '@a.md @b.md\n', 'a.md': 'a @b.md @CLAUDE.md\n', 'b.md': 'b @a.md\n' });
    const found = discover(t);
    expect(rel(t, found.files).map((p) => path.basename(p))).toEqual(['CLAUDE.md', 'a.md', 'b.md']);
    expect(found.skipped.every((s) => s.reason.startsWith('already loaded'))).toBe(true);
  });

  it('are not read inside code spans, fenced or indented code blocks, or HTML comments; an anchor and an escaped space are allowed', () => {
    const t = tree();
    t.write(t.project, {
      'CLAUDE.md': [
        'Span `@span.md` here.',
        '',
        '```',
        '@fenced.md',
        '```',
        '',
        '~~~',
        '@tilde.md',
        '~~~',
        '',
        '    @indented.md',
        '',
        '<!-- @comment.md -->',
        'Mail me@example.com, see (@paren.md) and @anchor.md#part and @with\\ space.md',
        '',
      ].join('\n'),
      ...Object.fromEntries(['span', 'fenced', 'tilde', 'indented', 'comment', 'paren', 'anchor', 'with space', 'example.com'].map((n) => [`${n}.md`, n])),
    });
    expect(rel(t, discover(t).files).map((p) => path.basename(p))).toEqual(['CLAUDE.md', 'anchor.md', 'with space.md']);
  });

  it('a blockquote’s >@file imports, in a list too (as in Claude Code); an address like team@file does not', () => {
    const t = tree();
    t.write(t.project, {
      'CLAUDE.md': 'Contact a@b.md or team@quoted.md\n\n>@quoted.md\n\n- item\n  >@b.md\n',
      'quoted.md': 'Q\n',
      'b.md': 'B\n',
    });
    expect(rel(t, discover(t).files).map((p) => path.basename(p))).toEqual(['CLAUDE.md', 'quoted.md', 'b.md']);
    t.write(t.project, { 'CLAUDE.md': 'Contact a@b.md or team@quoted.md\n' });
    expect(rel(t, discover(t).files).map((p) => path.basename(p))).toEqual(['CLAUDE.md']);
  });

  it('a missing file is noted, not given; a binary extension and a trailing comma are not text files', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': 'see @nope.md, @logo.png and @data.json\n', 'logo.png': 'x', 'data.json': '{}' });
    const found = discover(t);
    expect(rel(t, found.files).map((p) => path.basename(p))).toEqual(['CLAUDE.md', 'data.json']);
    expect(found.skipped.map((s) => [path.basename(s.path), s.reason])).toEqual([
      ['nope.md,', 'not found'],
      ['logo.png', 'not a text file'],
    ]);
  });

  it('~/ resolves to the home folder; a project file may import from outside the working directory only when approved', () => {
    const t = tree();
    t.write(t.home, { 'personal.md': 'mine' });
    t.write(t.project, { 'CLAUDE.md': '@~/personal.md and @../outside.md\n' });
    t.write(path.dirname(t.project), { 'outside.md': 'outside' });
    const denied = discover(t);
    expect(rel(t, denied.files)).toEqual(['work/proj/CLAUDE.md']);
    expect(denied.skipped.map((s) => s.reason)).toEqual([
      expect.stringContaining('outside the working directory'),
      expect.stringContaining('outside the working directory'),
    ]);
    expect(rel(t, discover(t, { externalApproved: true }).files)).toEqual(['work/proj/CLAUDE.md', 'home/personal.md', 'work/outside.md']);
  });

  it("the user's own file may import from anywhere", () => {
    const t = tree();
    t.write(t.home, { 'notes/n.md': 'note' });
    t.write(t.configDir, { 'CLAUDE.md': '@~/notes/n.md @../notes/n.md\n' });
    expect(rel(t, discover(t).files)).toEqual(['home/.claude/CLAUDE.md', 'home/notes/n.md']);
  });

  it('a file a Read deny rule covers is never read: left out, noted as denied', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': 'see @docs/secret.md\n', 'docs/secret.md': 'zq9-SECRET-TEXT' });
    const asked: string[] = [];
    const found = discover(t, {
      deniedBy: (f) => {
        asked.push(f);
        return f.endsWith('secret.md') ? 'Read(./docs/secret.md)' : undefined;
      },
    });
    expect(JSON.stringify(found.files)).not.toContain('zq9-SECRET-TEXT');
    expect(found.skipped).toEqual([
      {
        path: path.join(t.project, 'docs', 'secret.md'),
        reason: 'a Read deny rule covers it (Read(./docs/secret.md))',
        parent: path.join(t.project, 'CLAUDE.md'),
        denied: true,
      },
    ]);
    expect(asked).toContain(path.join(t.project, 'docs', 'secret.md'));
  });

  it('a denied CLAUDE.md itself is left out too, and so is what it would import', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': '@a.md\n', 'a.md': 'a' });
    const found = discover(t, { deniedBy: (f) => (f.endsWith('CLAUDE.md') ? 'Read(CLAUDE.md)' : undefined) });
    expect(found.files).toEqual([]);
    expect(found.skipped).toEqual([expect.objectContaining({ denied: true, path: path.join(t.project, 'CLAUDE.md') })]);
  });
});
