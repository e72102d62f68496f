import { linkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deniedPathRule, matchPathRules } from '../../../src/permissions/path-rules.js';
import { pathForms, realPathDeep } from '../../../src/permissions/real-path.js';
import { parseRule, type RuleSource } from '../../../src/base/rule-parse.js';
import { emptyRules } from '../../../src/base/permission-types.js';
import type { RuleList } from '../../../src/base/tool.js';
import { makeWorld, permissionContext, type World } from './world.js';

let w: World;
beforeAll(() => {
  w = makeWorld();
});
afterAll(() => w.cleanup());

function hits(
  spec: string,
  file: string,
  list: RuleList,
  opts: { source?: RuleSource; sourcePath?: string; cwd?: string; access?: 'read' | 'write' } = {},
): boolean {
  const rule = parseRule(`Read(${spec})`, opts.source ?? 'projectSettings', opts.sourcePath ?? path.join(w.project, '.claude/settings.json'));
  const ctx = permissionContext(w, 'default', opts.cwd ?? w.project);
  return matchPathRules({ access: opts.access ?? 'read', paths: [file] }, [rule], list, ctx) !== undefined;
}

describe('path rules: anchors', () => {
  it('//abs is the filesystem root', () => {
    expect(hits(`/${w.outside}/secret.txt`, path.join(w.outside, 'secret.txt'), 'deny')).toBe(true);
    expect(hits('//etc/passwd', '/etc/passwd', 'allow')).toBe(true);
  });
  it('~/ and $HOME are the home folder', () => {
    expect(hits('~/.ssh/id_rsa', path.join(w.home, '.ssh/id_rsa'), 'allow')).toBe(true);
    expect(hits('$HOME/.ssh/*', path.join(w.home, '.ssh/id_rsa'), 'allow')).toBe(true);
    // `~` alone: an allow rule approves nothing (as in Claude Code), a deny rule covers the folder
    expect(hits('~', path.join(w.home, 'notes.txt'), 'allow')).toBe(false);
    expect(hits('~', path.join(w.home, 'notes.txt'), 'deny')).toBe(true);
  });
  it('/path is relative to the settings source root', () => {
    const user = { source: 'userSettings' as const, sourcePath: path.join(w.home, '.claude/settings.json') };
    expect(hits('/x/**', path.join(w.home, '.claude/x/y'), 'allow', user)).toBe(true);
    expect(hits('/x/**', path.join(w.project, 'x/y'), 'allow', user)).toBe(false);
    expect(hits('/x/**', path.join(w.project, 'x/y'), 'allow', { source: 'cli', sourcePath: '' })).toBe(true);
    expect(hits('/x/**', path.join(w.root, 'ci/x/y'), 'allow', { source: 'cli', sourcePath: path.join(w.root, 'ci/settings.json') })).toBe(true);
  });
  it('./ and bare paths are relative to the project and, when it moved, the cwd', () => {
    const sub = path.join(w.project, 'sub');
    expect(hits('./a.txt', path.join(w.project, 'a.txt'), 'allow', { cwd: sub })).toBe(true);
    expect(hits('./a.txt', path.join(sub, 'a.txt'), 'allow', { cwd: sub })).toBe(true);
    expect(hits('./a.txt', path.join(w.outside, 'a.txt'), 'allow', { cwd: sub })).toBe(false);
  });
});

describe('path rules: gitignore semantics', () => {
  it('* stays in one folder, ** crosses folders', () => {
    expect(hits('src/*.ts', path.join(w.project, 'src/a.ts'), 'allow')).toBe(true);
    expect(hits('src/*.ts', path.join(w.project, 'src/deep/b.ts'), 'allow')).toBe(false);
    expect(hits('src/**/*.ts', path.join(w.project, 'src/deep/b.ts'), 'allow')).toBe(true);
  });
  it('dot files are matched by globs', () => {
    expect(hits('**', path.join(w.project, '.env'), 'allow')).toBe(true);
    expect(hits('src/*', path.join(w.project, 'src/.hidden'), 'allow')).toBe(true);
  });
  it('a matched folder covers its contents', () => {
    expect(hits('src/*', path.join(w.project, 'src/deep/b.ts'), 'allow')).toBe(true);
    expect(hits('secrets', path.join(w.project, 'secrets/key.pem'), 'deny')).toBe(true);
  });
  it('allow is case-sensitive, deny is not', () => {
    expect(hits('./README.md', path.join(w.project, 'readme.md'), 'allow')).toBe(false);
    expect(hits('./README.md', path.join(w.project, 'readme.md'), 'deny')).toBe(true);
  });
  it('a prefix of a name is not the name', () => {
    expect(hits('./secrets', path.join(w.project, 'secretsX/file.txt'), 'deny')).toBe(false);
    expect(hits('./.env', path.join(w.project, '.env.local'), 'deny')).toBe(false);
  });
  it('a file literally named ..foo is inside, not outside', () => {
    expect(hits('./**', path.join(w.project, '..foo'), 'allow')).toBe(true);
  });
});

describe('path rules: several paths and symbolic links', () => {
  const ctx = () => permissionContext(w, 'default');
  const rule = (spec: string) => parseRule(`Read(${spec})`, 'projectSettings', path.join(w.project, '.claude/settings.json'));

  it('allow needs every path covered; deny any', () => {
    const paths = { access: 'read' as const, paths: [path.join(w.project, 'src/a.ts'), path.join(w.project, 'README.md')] };
    expect(matchPathRules(paths, [rule('src/**')], 'allow', ctx())).toBeUndefined();
    expect(matchPathRules(paths, [rule('src/**'), rule('*.md')], 'allow', ctx())?.specifier).toBe('src/**');
    expect(matchPathRules(paths, [rule('*.md')], 'deny', ctx())?.specifier).toBe('*.md');
  });

  it('pathForms: the path as given and its real target', () => {
    expect(pathForms(path.join(w.project, 'outlink'))).toEqual([path.join(w.project, 'outlink'), path.join(w.outside, 'secret.txt')]);
    expect(pathForms(path.join(w.project, 'README.md'))).toEqual([path.join(w.project, 'README.md')]);
  });

  it('realPathDeep follows links in the folders of a file that does not exist yet', () => {
    expect(realPathDeep(path.join(w.project, 'outdir/new/file.txt'))).toBe(path.join(w.outside, 'new/file.txt'));
  });

  it('deniedPathRule: a Read deny forbids writing too; an Edit deny does not forbid reading', () => {
    const rules = emptyRules();
    rules.deny.push(rule('./.env'), parseRule('Edit(src/**)', 'projectSettings'));
    expect(deniedPathRule(path.join(w.project, '.env'), 'write', rules, ctx())?.raw).toBe('Read(./.env)');
    expect(deniedPathRule(path.join(w.project, 'src/a.ts'), 'read', rules, ctx())).toBeUndefined();
    expect(deniedPathRule(path.join(w.project, 'src/a.ts'), 'write', rules, ctx())?.raw).toBe('Edit(src/**)');
  });

  it('rules without a specifier or with an error are skipped', () => {
    const paths = { access: 'read' as const, paths: [path.join(w.project, '.env')] };
    expect(matchPathRules(paths, [parseRule('Read', 'cli'), { ...rule('./.env'), error: 'x' }], 'deny', ctx())).toBeUndefined();
    expect(matchPathRules({ access: 'read', paths: [] }, [rule('**')], 'allow', ctx())).toBeUndefined();
  });
});

describe('path rules: spellings deny and ask rules see through', () => {
  it('fold case and Unicode compatibility forms (NFC, NFD, full width) for deny, not for allow', () => {
    expect(hits('./caf\u00e9/**', path.join(w.project, 'cafe\u0301/x.txt'), 'deny')).toBe(true);
    expect(hits('./cafe\u0301/**', path.join(w.project, 'CAF\u00c9/x.txt'), 'deny')).toBe(true);
    expect(hits('./secrets/**', path.join(w.project, '\uff53ecrets/key.pem'), 'deny')).toBe(true);
    expect(hits('*.PEM', path.join(w.project, 'secrets/key.pem'), 'ask')).toBe(true);
    expect(hits('./caf\u00e9/**', path.join(w.project, 'cafe\u0301/x.txt'), 'allow')).toBe(false);
  });
  it('take anchors with their links followed: the project reached through a link still counts', () => {
    const linked = path.join(w.root, 'project-link');
    symlinkSync(w.project, linked);
    const rule = parseRule('Read(./secrets/**)', 'projectSettings', path.join(linked, '.claude/settings.json'));
    const ctx = { ...permissionContext(w, 'default', linked), projectRoot: linked };
    expect(matchPathRules({ access: 'read', paths: [path.join(w.project, 'secrets/key.pem')] }, [rule], 'deny', ctx)).toBeDefined();
    expect(matchPathRules({ access: 'read', paths: [`/proc/self/root${w.project}/secrets/key.pem`] }, [rule], 'deny', ctx)).toBeDefined();
  });
  it('recognise a hard link outside the project to a file under a denied folder, by inode', () => {
    const hard = path.join(w.outside, 'hard-key.pem');
    linkSync(path.join(w.project, 'secrets/key.pem'), hard);
    expect(hits('./secrets/**', hard, 'deny')).toBe(true);
    expect(hits('./secrets/**', path.join(w.outside, 'secret.txt'), 'deny')).toBe(false);
    // Not for ask or allow: an inode says nothing about what a rule meant to permit.
    expect(hits('./secrets/**', hard, 'allow')).toBe(false);
  });
});
