import { describe, expect, it } from 'vitest';
import { parseRule } from '../../../src/base/rule-parse.js';
import { readDenyGlobsAt, readDenyPatterns } from '../../../src/permissions/search-deny.js';

const ctx = { projectRoot: '/p', homeDir: '/h' };
const parsed = (rules: string[]) => rules.map((r) => parseRule(r, 'projectSettings', '/p/.claude/settings.json'));
const pats = (...rules: string[]) => readDenyPatterns(parsed(rules), ctx);
const at = (rgCwd: string, ...rules: string[]) => readDenyGlobsAt(parsed(rules), ctx, rgCwd);

describe('readDenyPatterns', () => {
  it('turns Read deny rules into project-relative patterns', () => {
    expect(pats('Read(./secrets/**)')).toEqual(['secrets/**', 'secrets/**/**']);
    expect(pats('Read(.env)')).toEqual(['**/.env', '**/.env/**']);
    expect(pats('Read(/config/keys.json)')).toEqual(['config/keys.json', 'config/keys.json/**']);
    expect(pats('Read(//p/private)')).toEqual(['private', 'private/**']);
    expect(pats('Read(~/x)', 'Read(//etc/passwd)')).toEqual([]);
    expect(pats('Edit(./a)', 'Read')).toEqual([]);
  });
});

describe('readDenyGlobsAt: patterns relative to the folder rg runs in', () => {
  it('roots project rules under a folder above the project', () => {
    expect(at('/', 'Read(./secrets/**)')).toEqual(['p/secrets/**', 'p/secrets/**/**']);
    expect(at('/p/..', 'Read(./a/b.txt)')).toEqual(['p/a/b.txt', 'p/a/b.txt/**']);
  });
  it('roots home rules when the search is in or above the home folder', () => {
    expect(at('/h', 'Read(~/.ssh/**)')).toEqual(['.ssh/**', '.ssh/**/**']);
    expect(at('/', 'Read(~/.ssh/**)')).toEqual(['h/.ssh/**', 'h/.ssh/**/**']);
    expect(at('/p', 'Read(~/.ssh/**)')).toEqual([]);
  });
  it('keeps loose rules at any depth, and a rooted `**` rule inside its folder', () => {
    expect(at('/anywhere', 'Read(*.pem)')).toEqual(['**/*.pem', '**/*.pem/**']);
    expect(at('/data/x', 'Read(//data/**/*.key)')).toEqual(['**/*.key', '**/*.key/**']);
    expect(at('/p/secrets', 'Read(./secrets/**)')).toEqual(['**']);
  });
  it('escapes wildcard characters in the literal part of a folder name', () => {
    expect(readDenyGlobsAt(parsed(['Read(./secret)']), { projectRoot: '/w/a[1]', homeDir: '/h' }, '/w')).toEqual(['a\\[1\\]/secret', 'a\\[1\\]/secret/**']);
  });
});
