/** Auto memory: on or off, where its folder is, and how much of MEMORY.md the model gets. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoMemoryDir, autoMemoryEnabled, readMemoryIndex, truncateIndex } from '../../../src/session/memory/auto-memory.js';
import { tree } from './tree.js';

const slug = (p: string) => p.replace(/[^a-zA-Z0-9]/g, '-');

describe('auto memory', () => {
  it('is on by default; settings turn it off; the environment wins either way', () => {
    expect(autoMemoryEnabled({}, {})).toBe(true);
    expect(autoMemoryEnabled({}, { autoMemoryEnabled: false })).toBe(false);
    expect(autoMemoryEnabled({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' }, {})).toBe(false);
    expect(autoMemoryEnabled({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0' }, { autoMemoryEnabled: false })).toBe(true);
  });

  it('lives under the config folder by the main repository root, shared by its worktrees; autoMemoryDirectory moves it', () => {
    const t = tree();
    t.write(t.project, {
      '.git/HEAD': 'ref: x',
      '.git/worktrees/w/commondir': '../..\n',
      'w/.git': `gitdir: ${path.join(t.project, '.git', 'worktrees', 'w')}\n`,
    });
    const base = { home: t.home, configDir: t.configDir, slug };
    const expected = path.join(t.configDir, 'projects', slug(t.project), 'memory');
    expect(autoMemoryDir({ ...base, cwd: path.join(t.project, 'deep') })).toBe(expected);
    expect(autoMemoryDir({ ...base, cwd: path.join(t.project, 'w') })).toBe(expected);
    expect(autoMemoryDir({ ...base, cwd: t.project, directory: '~/notes/mem' })).toBe(path.join(t.home, 'notes', 'mem'));
    expect(autoMemoryDir({ ...base, cwd: t.project, directory: 'relative/dir' })).toBeUndefined();
    expect(autoMemoryDir({ ...base, cwd: t.project, directory: '/' })).toBeUndefined();
  });

  it('gives the first 200 lines of MEMORY.md, and says what was cut and where', () => {
    const lines = Array.from({ length: 250 }, (_, i) => `- [Topic ${i + 1}](topic${i + 1}.md) — hook line ${i + 1}`);
    const out = truncateIndex(`${lines.join('\n')}\n`);
    expect(out.split('\n').slice(0, 200)).toEqual(lines.slice(0, 200));
    expect(
      out.endsWith(
        '\n\n> WARNING: MEMORY.md is 250 lines (limit: 200). Only part of it was loaded: 50 of 250 lines were cut off, starting at line 201 ("- [Topic 201](topic201.md) — hook line 201"). Keep index entries to one line under ~200 chars; move detail into topic files.',
      ),
    ).toBe(true);
  });

  it('and no more than 25,000 characters, cut at a line end', () => {
    const lines = Array.from({ length: 119 }, (_, i) => `- [Entry ${i + 1}](e${i + 1}.md) — ${'x'.repeat(300)}`);
    const out = truncateIndex(`${lines.join('\n')}\n`);
    expect(out).toContain(
      '> WARNING: MEMORY.md is 37.7KB (limit: 24.4KB) — index entries are too long. Only part of it was loaded: 42 of 119 lines were cut off, starting at line 78 ("- [Entry 78](e78.md) — ',
    );
    expect(out.indexOf('\n\n> WARNING')).toBe(24929);
    expect(truncateIndex('short\n')).toBe('short');
  });

  it('is read with its comments and control characters taken out; a missing, empty or denied index gives nothing', () => {
    const t = tree();
    t.write(t.root, { 'mem/MEMORY.md': '<!-- private -->\n- [a](a.md) \u0007ok\n', 'empty/MEMORY.md': '  \n' });
    expect(readMemoryIndex(path.join(t.root, 'mem'), () => undefined)).toEqual({
      path: path.join(t.root, 'mem', 'MEMORY.md'),
      type: 'AutoMem',
      content: '- [a](a.md) ok',
    });
    expect(readMemoryIndex(path.join(t.root, 'empty'), () => undefined)).toBeUndefined();
    expect(readMemoryIndex(path.join(t.root, 'none'), () => undefined)).toBeUndefined();
    expect(readMemoryIndex(path.join(t.root, 'mem'), () => 'Read(~/mem/**)')).toBeUndefined();
  });
});
