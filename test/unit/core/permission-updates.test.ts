/** The Agent SDK's permission updates: applied to the session at once, and written where their destination says. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRules } from '../../../src/base/permission-types.js';
import { parseRule } from '../../../src/base/rule-parse.js';
import { applyPermissionUpdates, type PermissionTarget } from '../../../src/core/permission-updates.js';

function target(over: Partial<PermissionTarget> = {}): PermissionTarget {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-updates-')));
  const projectRoot = path.join(root, 'project');
  const homeDir = path.join(root, 'home');
  mkdirSync(projectRoot, { recursive: true });
  mkdirSync(homeDir, { recursive: true });
  return { permission: { mode: 'default', rules: emptyRules() }, additionalDirs: [], projectRoot, cwd: projectRoot, homeDir, canBypass: false, ...over };
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const local = (t: PermissionTarget) => path.join(t.projectRoot, '.claude/settings.local.json');

describe('applyPermissionUpdates', () => {
  it('addRules: the rules hold at once and are written to the destination, keeping what the file had', async () => {
    const t = target();
    mkdirSync(path.dirname(local(t)));
    writeFileSync(local(t), JSON.stringify({ model: 'opus', permissions: { allow: ['Read'] } }));
    const out = await applyPermissionUpdates(
      [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test' }, { toolName: 'Read' }], behavior: 'allow', destination: 'localSettings' }],
      t,
    );
    expect(out).toEqual({ applied: ['allow rules added (localSettings): Bash(npm test), Read'], warnings: [] });
    expect(t.permission.rules.allow.map((r) => [r.raw, r.source, r.sourcePath])).toEqual([
      ['Bash(npm test)', 'localSettings', local(t)],
      ['Read', 'localSettings', local(t)],
    ]);
    expect(read(local(t))).toEqual({ model: 'opus', permissions: { allow: ['Read', 'Bash(npm test)'] } });
  });

  it('replaceRules and removeRules change only the destination’s rules of that list', async () => {
    const t = target({ configDir: undefined });
    const user = path.join(t.homeDir, '.claude/settings.json');
    t.permission.rules.deny.push(parseRule('Bash(rm *)', 'projectSettings'), parseRule('WebFetch', 'userSettings'), parseRule('Bash(curl *)', 'userSettings'));
    mkdirSync(path.dirname(user), { recursive: true });
    writeFileSync(user, JSON.stringify({ permissions: { deny: ['WebFetch', 'Bash(curl *)'] } }));
    await applyPermissionUpdates([{ type: 'removeRules', rules: [{ toolName: 'WebFetch' }], behavior: 'deny', destination: 'userSettings' }], t);
    expect(t.permission.rules.deny.map((r) => r.raw)).toEqual(['Bash(rm *)', 'Bash(curl *)']);
    expect(read(user).permissions.deny).toEqual(['Bash(curl *)']);
    await applyPermissionUpdates(
      [{ type: 'replaceRules', rules: [{ toolName: 'Bash', ruleContent: 'sudo *' }], behavior: 'deny', destination: 'userSettings' }],
      t,
    );
    expect(t.permission.rules.deny.map((r) => r.raw)).toEqual(['Bash(rm *)', 'Bash(sudo *)']);
    expect(read(user).permissions.deny).toEqual(['Bash(sudo *)']);
  });

  it('session and cliArg rules are not written anywhere', async () => {
    const t = target();
    await applyPermissionUpdates(
      [
        { type: 'addRules', rules: [{ toolName: 'Edit' }], behavior: 'ask', destination: 'session' },
        { type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'ask', destination: 'cliArg' },
      ],
      t,
    );
    expect(t.permission.rules.ask.map((r) => [r.raw, r.source])).toEqual([
      ['Edit', 'session'],
      ['Write', 'session'],
    ]);
    expect(() => readFileSync(local(t))).toThrow();
  });

  it('setMode: the session’s mode, written as defaultMode for a settings destination; bypass only when allowed', async () => {
    const t = target();
    await applyPermissionUpdates([{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }], t);
    expect(t.permission.mode).toBe('acceptEdits');
    await applyPermissionUpdates([{ type: 'setMode', mode: 'plan', destination: 'localSettings' }], t);
    expect(read(local(t))).toEqual({ permissions: { defaultMode: 'plan' } });
    const refused = await applyPermissionUpdates([{ type: 'setMode', mode: 'bypassPermissions', destination: 'session' }], t);
    expect(refused.warnings).toEqual(['updatedPermissions[0]: bypassPermissions mode was not allowed when this session started; the mode is unchanged']);
    expect(t.permission.mode).toBe('plan');
    const allowed = target({ canBypass: true });
    await applyPermissionUpdates([{ type: 'setMode', mode: 'bypassPermissions', destination: 'session' }], allowed);
    expect(allowed.permission.mode).toBe('bypassPermissions');
  });

  it('addDirectories and removeDirectories: real paths, relative to the cwd; written for a settings destination', async () => {
    const t = target();
    const other = path.join(path.dirname(t.projectRoot), 'other');
    mkdirSync(other);
    await applyPermissionUpdates([{ type: 'addDirectories', directories: ['../other'], destination: 'projectSettings' }], t);
    expect(t.additionalDirs).toEqual([other]);
    expect(read(path.join(t.projectRoot, '.claude/settings.json'))).toEqual({ permissions: { additionalDirectories: [other] } });
    await applyPermissionUpdates([{ type: 'removeDirectories', directories: [other], destination: 'session' }], t);
    expect(t.additionalDirs).toEqual([]);
  });

  it('what cannot be read is skipped with a warning; a file that cannot be changed leaves the change for the session', async () => {
    const t = target();
    expect(await applyPermissionUpdates('all of them', t)).toEqual({ applied: [], warnings: ['updatedPermissions is not a list; ignored'] });
    const out = await applyPermissionUpdates(
      [
        null,
        { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'somewhere' },
        { type: 'addRules', rules: [{ ruleContent: 'x' }], behavior: 'allow', destination: 'session' },
        { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'maybe', destination: 'session' },
        { type: 'grantEverything', destination: 'session' },
        { type: 'setMode', mode: 'yolo', destination: 'session' },
      ],
      t,
    );
    expect(out.applied).toEqual([]);
    expect(out.warnings).toHaveLength(6);
    expect(t.permission.rules.allow).toEqual([]);
    expect(t.permission.mode).toBe('default');
    mkdirSync(path.dirname(local(t)));
    writeFileSync(local(t), '{ not json');
    const broken = await applyPermissionUpdates([{ type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'allow', destination: 'localSettings' }], t);
    expect(broken.warnings).toEqual([expect.stringMatching(/settings\.local\.json:1:\d+: not valid JSON/)]);
    expect(t.permission.rules.allow.map((r) => r.raw)).toEqual(['Read']);
    expect(readFileSync(local(t), 'utf8')).toBe('{ not json');
  });
});
