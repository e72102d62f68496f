import { readFileSync, statSync, chmodSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addLocalAllowRule, addLocalRule } from '../../../src/settings/persist.js';
import { load, makeDirs, writeJson, type Dirs } from './helpers.js';

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

const readLocal = () => JSON.parse(readFileSync(d.localFile, 'utf8')) as Record<string, any>;

describe('addLocalAllowRule', () => {
  it('creates .claude/settings.local.json when there is none', async () => {
    await addLocalAllowRule(d.root + '/fresh', 'Bash(npm test:*)');
    const text = readFileSync(d.root + '/fresh/.claude/settings.local.json', 'utf8');
    expect(JSON.parse(text)).toEqual({ permissions: { allow: ['Bash(npm test:*)'] } });
    expect(text.endsWith('\n')).toBe(true);
  });

  it('keeps every other key and rule, and the file indentation', async () => {
    writeJson(
      d.localFile,
      '{\n    "permissions": {\n        "allow": ["Read"],\n        "deny": ["Bash(rm:*)"]\n    },\n    "env": { "A": "1" },\n    "x-custom": [1, 2]\n}\n',
    );
    await addLocalAllowRule(d.project, 'WebFetch(domain:github.com)');
    const text = readFileSync(d.localFile, 'utf8');
    expect(JSON.parse(text)).toEqual({
      permissions: { allow: ['Read', 'WebFetch(domain:github.com)'], deny: ['Bash(rm:*)'] },
      env: { A: '1' },
      'x-custom': [1, 2],
    });
    expect(text).toContain('\n    "permissions"');
  });

  it('does not add a rule twice', async () => {
    await addLocalAllowRule(d.project, 'Bash(ls:*)');
    await addLocalAllowRule(d.project, 'Bash(ls:*)');
    expect(readLocal().permissions.allow).toEqual(['Bash(ls:*)']);
  });

  it('rules added at the same moment all land', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => addLocalAllowRule(d.project, `Bash(task${i}:*)`)));
    expect(readLocal().permissions.allow).toHaveLength(12);
  });

  it('never overwrites a file that is not valid JSON(C), and names the place', async () => {
    writeJson(d.localFile, '{ "permissions": { "allow": ["Read"] }');
    await expect(addLocalAllowRule(d.project, 'Bash(ls:*)')).rejects.toThrow(
      /settings\.local\.json:1:39: not valid JSON: expected "}" to close the object.*not changed/,
    );
    expect(readFileSync(d.localFile, 'utf8')).toBe('{ "permissions": { "allow": ["Read"] }');
  });

  it('a JSONC file keeps its comments, trailing commas and byte order mark; only the new rule is added', async () => {
    const before =
      '\uFEFF{\n  // mine\n  "permissions": {\n    "allow": [\n      "Read", // reading is fine\n    ],\n    /* never */ "deny": ["Bash(rm:*)"],\n  },\n}\n';
    writeJson(d.localFile, before);
    await addLocalAllowRule(d.project, 'Bash(ls:*)');
    const text = readFileSync(d.localFile, 'utf8');
    expect(text.startsWith('\uFEFF{\n  // mine\n')).toBe(true);
    expect(text).toContain('// reading is fine');
    expect(text).toContain('/* never */ "deny": ["Bash(rm:*)"]');
    const l = load(d);
    expect(l.errors).toEqual([]);
    expect(l.rules.allow.map((r) => r.raw)).toEqual(['Read', 'Bash(ls:*)']);
    expect(l.rules.deny.map((r) => r.raw)).toEqual(['Bash(rm:*)']);
  });

  it('refuses when permissions.allow is not a list', async () => {
    writeJson(d.localFile, { permissions: { allow: 'Read' } });
    await expect(addLocalAllowRule(d.project, 'Bash(ls:*)')).rejects.toThrow(/permissions.allow is not an array/);
  });

  it('keeps the file mode', async () => {
    writeJson(d.localFile, { permissions: {} });
    chmodSync(d.localFile, 0o600);
    await addLocalAllowRule(d.project, 'Read');
    expect(statSync(d.localFile).mode & 0o777).toBe(0o600);
  });

  it('the loader sees the rule at once, as a local rule', async () => {
    await addLocalAllowRule(d.project, 'Bash(make:*)');
    await addLocalRule(d.project, 'deny', 'Bash(make clean)');
    const l = load(d);
    expect(l.rules.allow[0]).toMatchObject({ raw: 'Bash(make:*)', source: 'localSettings', sourcePath: d.localFile });
    expect(l.rules.deny[0]).toMatchObject({ raw: 'Bash(make clean)', source: 'localSettings' });
  });
});
