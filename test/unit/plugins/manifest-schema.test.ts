/** marketplace.json and plugin.json are checked as Claude Code checks them; each problem names the file and the JSON path. */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonPath, readMarketplaceFile, readPluginManifest } from '../../../src/plugins/manifest-schema.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-schema-')));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));
const file = (content: string | object) => {
  const f = path.join(base, 'm.json');
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
};

describe('marketplace.json', () => {
  it('accepts Claude Code’s shapes, unknown keys included', () => {
    const f = file({
      name: 'team',
      owner: { name: 'T' },
      extra: 1,
      plugins: [
        { name: 'a', source: './a', category: 'x' },
        { name: 'b', source: { source: 'github', repo: 'o/b', ref: 'v1' } },
        { name: 'c', source: { source: 'url', url: 'file:///c.git', sha: 'a'.repeat(40) } },
        { name: 'd', source: { source: 'git-subdir', url: 'o/mono', path: 'plugins/d' } },
      ],
    });
    expect(readMarketplaceFile(f)).toMatchObject({ ok: { name: 'team', plugins: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] } });
  });

  it('names the file, the JSON path and what is wrong', () => {
    const f = file({
      name: 'team',
      plugins: [
        { name: 'ok', source: { source: 'github', repo: 'nope' } },
        { name: 'bad name', source: './x', version: 3 },
        { name: 'c', source: { source: 'ftp' } },
        { name: 'd', source: 5 },
      ],
    });
    const r = readMarketplaceFile(f);
    expect('error' in r && r.error.split('\n')).toEqual([
      `${f} does not fit the format:`,
      '  owner: Invalid input: expected object, received undefined',
      '  plugins[0].source.repo: must be owner/repo',
      '  plugins[1].name: must be a name of letters, digits, "-", "_" and "." (starting with a letter or digit)',
      '  plugins[1].version: Invalid input: expected string, received number',
      '  plugins[2].source.source: must be one of "github", "url", "git-subdir", "npm", "pip"',
      '  plugins[3].source: expected string or object',
    ]);
  });

  it('a file that is not JSON, or not there, says so', () => {
    expect(readMarketplaceFile(file('{"name": '))).toMatchObject({ error: expect.stringContaining('invalid JSON at line 1') });
    expect(readMarketplaceFile(path.join(base, 'none.json'))).toEqual({ error: `${path.join(base, 'none.json')}: there is no such file` });
  });
});

describe('plugin.json', () => {
  it('is optional; when there it must fit', () => {
    expect(readPluginManifest(path.join(base, 'none.json'))).toEqual({ ok: undefined });
    expect(readPluginManifest(file({ name: 'p', version: '1.0.0', commands: ['./c'], hooks: { hooks: {} } }))).toMatchObject({ ok: { name: 'p' } });
    const f = file({ version: 1, commands: 5, author: 'me' });
    const r = readPluginManifest(f);
    expect('error' in r && r.error.split('\n').slice(1)).toEqual([
      '  name: Invalid input: expected string, received undefined',
      '  version: Invalid input: expected string, received number',
      '  author: Invalid input: expected object, received string',
      '  commands: expected string or array',
    ]);
  });

  it('writes JSON paths as people read them', () => {
    expect(jsonPath([])).toBe('(top level)');
    expect(jsonPath(['plugins', 2, 'source', 'url'])).toBe('plugins[2].source.url');
  });
});
