/** Marketplace sources as a person types them and as settings hold them, read as Claude Code reads them. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeSource, parseMarketplaceSource, sameSource, sourceArgument, sourceFromJson } from '../../../src/plugins/marketplace-source.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-msrc-')));
  mkdirSync(path.join(base, 'market/.claude-plugin'), { recursive: true });
  writeFileSync(path.join(base, 'market/.claude-plugin/marketplace.json'), '{}');
  writeFileSync(path.join(base, 'notes.txt'), '');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));
const parse = (s: string) => parseMarketplaceSource(s, base, '/home/me');

describe('parseMarketplaceSource', () => {
  it('reads owner/repo with #ref or @ref as GitHub', () => {
    expect(parse('acme/plugins')).toEqual({ source: 'github', repo: 'acme/plugins' });
    expect(parse('acme/plugins#v1.2')).toEqual({ source: 'github', repo: 'acme/plugins', ref: 'v1.2' });
    expect(parse('acme/plugins@main')).toEqual({ source: 'github', repo: 'acme/plugins', ref: 'main' });
  });

  it('reads git URLs: https ending in .git, github.com/owner/repo, ssh, scp-like and file://', () => {
    expect(parse('https://gitlab.com/team/plugins.git#dev')).toEqual({ source: 'git', url: 'https://gitlab.com/team/plugins.git', ref: 'dev' });
    expect(parse('https://github.com/acme/plugins')).toEqual({ source: 'git', url: 'https://github.com/acme/plugins.git' });
    expect(parse('git@github.com:acme/plugins.git#v2')).toEqual({ source: 'git', url: 'git@github.com:acme/plugins.git', ref: 'v2' });
    expect(parse('ssh://git@host/x.git')).toEqual({ source: 'git', url: 'ssh://git@host/x.git' });
    expect(parse('file:///srv/repos/market.git#v1')).toEqual({ source: 'git', url: 'file:///srv/repos/market.git', ref: 'v1' });
  });

  it('reads any other https URL as a marketplace.json to download', () => {
    expect(parse('https://example.com/m/marketplace.json')).toEqual({ source: 'url', url: 'https://example.com/m/marketplace.json' });
    expect(parse('https://example.com/m/marketplace.json#v1')).toMatchObject({ error: expect.stringContaining('is not a git repository URL') });
  });

  it('reads local folders and .json files; a missing path or another file is an error', () => {
    expect(parse('./market')).toEqual({ source: 'directory', path: path.join(base, 'market') });
    expect(parse('.')).toEqual({ source: 'directory', path: base });
    expect(parse('./market/.claude-plugin/marketplace.json')).toEqual({ source: 'file', path: path.join(base, 'market/.claude-plugin/marketplace.json') });
    expect(parse('./gone')).toEqual({ error: `${path.join(base, 'gone')} does not exist` });
    expect(parse('./notes.txt')).toMatchObject({ error: expect.stringContaining('is a file, and a marketplace file is a .json file') });
  });

  it('refuses what is none of these', () => {
    expect(parse('plugins')).toMatchObject({ error: expect.stringContaining('is not a marketplace source') });
    expect(parse('--upload-pack=evil')).toMatchObject({ error: expect.stringContaining('is not a marketplace source') });
    expect(parse('a b/c')).toMatchObject({ error: expect.stringContaining('is not a GitHub owner/repo') });
  });
});

describe('sources from JSON', () => {
  it('checks each kind and says what is missing', () => {
    expect(sourceFromJson({ source: 'git', url: 'file:///r.git', ref: 'main' })).toEqual({ source: 'git', url: 'file:///r.git', ref: 'main' });
    expect(sourceFromJson({ source: 'github', repo: 'a/b', path: 'x/marketplace.json' })).toEqual({
      source: 'github',
      repo: 'a/b',
      path: 'x/marketplace.json',
    });
    expect(sourceFromJson({ source: 'git' })).toEqual({ error: 'a "git" source needs "url" (a string)' });
    expect(sourceFromJson({ source: 'npm', package: 'x' })).toMatchObject({ error: expect.stringContaining('"npm" marketplace source is not supported') });
    expect(sourceFromJson('acme/x')).toMatchObject({ error: expect.stringContaining('must be an object') });
  });

  it('describes, gives back as an argument, and compares', () => {
    const gh = { source: 'github' as const, repo: 'acme/p', ref: 'v1' };
    expect(describeSource(gh)).toBe('acme/p#v1 (GitHub)');
    expect(sourceArgument(gh)).toBe('acme/p#v1');
    expect(sourceArgument({ source: 'git', url: '/srv/r.git' })).toBe('file:///srv/r.git');
    expect(sameSource(gh, { source: 'git', url: 'https://github.com/ACME/p.git', ref: 'v1' })).toBe(true);
    expect(sameSource(gh, { source: 'github', repo: 'acme/p' })).toBe(false);
  });
});
