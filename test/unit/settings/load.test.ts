import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { load, makeDirs, writeJson, type Dirs } from './helpers.js';

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

describe('loadSettings: sources and precedence', () => {
  it('loads nothing without files, and lists every source as not found', () => {
    const l = load(d);
    expect(l.warnings).toEqual([]);
    expect(l.sources.map((s) => [s.source, s.loaded])).toEqual([
      ['managed', false],
      ['localSettings', false],
      ['projectSettings', false],
      ['userSettings', false],
    ]);
    expect(l.rules).toEqual({ allow: [], ask: [], deny: [] });
    expect(l.hooks).toEqual([]);
  });

  it('scalars: the highest source wins (managed > cli > local > project > user)', () => {
    writeJson(d.userFile, { model: 'user' });
    expect(load(d).model).toBe('user');
    writeJson(d.projectFile, { model: 'project' });
    expect(load(d).model).toBe('project');
    writeJson(d.localFile, { model: 'local' });
    expect(load(d).model).toBe('local');
    expect(load(d, { cliSettings: '{"model":"cli"}' }).model).toBe('cli');
    writeJson(d.managed, { model: 'managed' });
    expect(load(d, { cliSettings: '{"model":"cli"}' }).model).toBe('managed');
  });

  it('lists merge across sources; each rule keeps its source and file', () => {
    writeJson(d.userFile, { permissions: { allow: ['Bash(ls:*)'] } });
    writeJson(d.projectFile, { permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] } });
    writeJson(d.localFile, { permissions: { allow: ['Bash(make:*)', 'Bash(ls:*)'] } });
    writeJson(d.managed, { permissions: { deny: ['Bash(curl:*)'] } });
    const l = load(d, { cliAllowed: ['WebSearch'], cliDisallowed: ['WebFetch'] });
    expect(l.rules.allow.map((r) => [r.raw, r.source])).toEqual([
      ['WebSearch', 'cli'],
      ['Bash(make:*)', 'localSettings'],
      ['Bash(ls:*)', 'localSettings'],
      ['Bash(npm test:*)', 'projectSettings'],
      ['Bash(ls:*)', 'userSettings'],
    ]);
    expect(l.rules.deny.map((r) => [r.raw, r.source, r.sourcePath])).toEqual([
      ['Bash(curl:*)', 'managed', d.managed],
      ['WebFetch', 'cli', undefined],
      ['Read(./.env)', 'projectSettings', d.projectFile],
    ]);
    expect((l.merged.permissions as { allow: string[] }).allow).toEqual(['Bash(make:*)', 'Bash(ls:*)', 'Bash(npm test:*)']);
  });

  it('objects merge key by key; env: the higher source wins per variable', () => {
    writeJson(d.userFile, { env: { A: 'user', B: 'user' }, statusLine: { type: 'command', command: 'u' } });
    writeJson(d.projectFile, { env: { B: 'project', C: 'project' } });
    const l = load(d);
    expect(l.env).toEqual({ A: 'user', B: 'project', C: 'project' });
    expect(l.merged.statusLine).toEqual({ type: 'command', command: 'u' });
  });

  it('keeps keys it does not use, unchanged, and names the one Claude Code does not document', () => {
    writeJson(d.projectFile, { enabledPlugins: { 'x@y': true }, someFutureKey: { deep: [1, 2] } });
    const l = load(d);
    expect(l.merged.enabledPlugins).toEqual({ 'x@y': true });
    expect(l.merged.someFutureKey).toEqual({ deep: [1, 2] });
    expect(l.warnings).toEqual([`${d.projectFile}: unknown key "someFutureKey" (not a Claude Code setting); ignored`]);
  });

  it('CLAUDE_CONFIG_DIR moves the user settings', () => {
    const configDir = path.join(d.root, 'cfg');
    writeJson(path.join(configDir, 'settings.json'), { model: 'from-config-dir' });
    writeJson(d.userFile, { model: 'from-home' });
    const l = load(d, { configDir });
    expect(l.model).toBe('from-config-dir');
    expect(l.sources.find((s) => s.source === 'userSettings')?.path).toBe(path.join(configDir, 'settings.json'));
  });

  it('--settings: a file path relative to the cwd, or JSON text', () => {
    writeJson(path.join(d.project, 'ci-settings.json'), { permissions: { deny: ['Bash(rm:*)'] } });
    const fromFile = load(d, { cliSettings: 'ci-settings.json' });
    expect(fromFile.rules.deny[0]).toMatchObject({ raw: 'Bash(rm:*)', source: 'cli', sourcePath: path.join(d.project, 'ci-settings.json') });
    const fromText = load(d, { cliSettings: '{"permissions":{"deny":["Edit"]}}' });
    expect(fromText.rules.deny[0]).toMatchObject({ raw: 'Edit', source: 'cli' });
    expect(fromText.rules.deny[0]?.sourcePath).toBeUndefined();
  });

  it('--settings: a missing file or broken JSON text is an error at file:line:column', () => {
    const missing = load(d, { cliSettings: 'nope.json' });
    expect(missing.errors).toEqual([
      expect.objectContaining({ file: path.join(d.project, 'nope.json'), source: 'cli', line: 1, column: 1, message: 'no such file (given to --settings)' }),
    ]);
    expect(missing.warnings).toEqual([]);
    expect(load(d, { cliSettings: '{"model": }' }).errors).toEqual([
      expect.objectContaining({ file: '--settings', line: 1, column: 11, message: 'expected a value, found "}"' }),
    ]);
  });

  it('managed-settings.d drop-ins merge after the managed file, in name order', () => {
    writeJson(d.managed, { model: 'base', permissions: { deny: ['Bash(a:*)'] } });
    const dropIns = path.join(path.dirname(d.managed), 'managed-settings.d');
    writeJson(path.join(dropIns, '20-b.json'), { model: 'b' });
    writeJson(path.join(dropIns, '10-a.json'), { model: 'a', permissions: { deny: ['Bash(b:*)'] } });
    writeFileSync(path.join(dropIns, 'README.txt'), 'not settings');
    const l = load(d);
    expect(l.model).toBe('b');
    expect(l.rules.deny.map((r) => r.raw).sort()).toEqual(['Bash(a:*)', 'Bash(b:*)']);
    expect(l.sources.filter((s) => s.source === 'managed').length).toBe(3);
  });

  it('a cwd equal to home does not load ~/.claude/settings.json twice', () => {
    writeJson(d.userFile, { permissions: { allow: ['Read'] } });
    const l = load(d, { cwd: d.home });
    expect(l.rules.allow.length).toBe(1);
    expect(l.sources.filter((s) => s.path === d.userFile).length).toBe(1);
  });

  it('a directory where a settings file should be is an error', () => {
    mkdirSync(d.localFile);
    const l = load(d);
    expect(l.errors).toEqual([expect.objectContaining({ file: d.localFile, line: 1, column: 1, message: 'is a folder, not a settings file' })]);
    expect(l.warnings).toEqual([]);
  });

  it('a file the person chose to go on without is a warning while it is broken, and loads again once fixed', () => {
    writeJson(d.localFile, '{ "permissions": { "deny": "Bash(rm:*)" } }');
    const skipped = load(d, { without: [d.localFile] });
    expect(skipped.errors).toEqual([]);
    expect(skipped.warnings).toEqual([
      expect.stringMatching(/settings\.local\.json:1:28: permissions\.deny must be a list .*; going on without this file, as chosen/),
    ]);
    writeJson(d.localFile, { permissions: { deny: ['Bash(rm:*)'] } });
    expect(load(d, { without: [d.localFile] }).rules.deny.map((r) => r.raw)).toEqual(['Bash(rm:*)']);
  });

  it('the managed policy can never be gone on without', () => {
    writeJson(d.managed, '{ "permissions": [] }');
    expect(load(d, { without: [d.managed] }).errors).toEqual([
      expect.objectContaining({ file: d.managed, source: 'managed', message: 'permissions must be an object, found a list' }),
    ]);
  });
});

describe('loadSettings: modes, directories and hook policy', () => {
  it('the agents-md option comes from the managed, user and --settings files only, as in Claude Code; the project’s files do not set it', () => {
    const agents = (v: string) => ({ pluginConfigs: { 'agents-md@builtin': { options: { instructionFiles: v } } } });
    writeJson(d.projectFile, agents('claude-md'));
    writeJson(d.localFile, agents('managed-only'));
    expect(load(d).agentsMdConfig).toBeUndefined();
    writeJson(d.userFile, agents('claude-md-and-agents-md'));
    expect(load(d).agentsMdConfig).toEqual({ options: { instructionFiles: 'claude-md-and-agents-md' } });
    expect(load(d, { cliSettings: JSON.stringify(agents('claude-md')) }).agentsMdConfig).toEqual({ options: { instructionFiles: 'claude-md' } });
  });

  it('defaultMode: the highest source with a valid value', () => {
    writeJson(d.userFile, { permissions: { defaultMode: 'plan' } });
    writeJson(d.projectFile, { permissions: { defaultMode: 'acceptEdits' } });
    expect(load(d).defaultMode).toBe('acceptEdits');
    writeJson(d.localFile, { permissions: { defaultMode: 'manual' } });
    expect(load(d).defaultMode).toBe('default');
  });

  it('bypassPermissions: not from the shared project file, yes from the local file', () => {
    writeJson(d.projectFile, { permissions: { defaultMode: 'bypassPermissions' } });
    const fromProject = load(d);
    expect(fromProject.defaultMode).toBeUndefined();
    expect(fromProject.warnings).toEqual([expect.stringContaining('not honoured from a shared project file')]);
    writeJson(d.localFile, { permissions: { defaultMode: 'bypassPermissions' } });
    expect(load(d).defaultMode).toBe('bypassPermissions');
  });

  it('disableBypassPermissionsMode in any source turns bypass off', () => {
    writeJson(d.localFile, { permissions: { defaultMode: 'bypassPermissions' } });
    writeJson(d.userFile, { permissions: { disableBypassPermissionsMode: 'disable' } });
    const l = load(d);
    expect(l.disableBypassPermissions).toBe(true);
    expect(l.defaultMode).toBeUndefined();
  });

  it('additionalDirectories: ~ and relative paths resolved, merged, each once', () => {
    writeJson(d.projectFile, { permissions: { additionalDirectories: ['../shared-lib', '~/notes'] } });
    writeJson(d.userFile, { permissions: { additionalDirectories: ['../shared-lib', '/opt/data'] } });
    expect(load(d).additionalDirectories).toEqual([path.join(d.root, 'shared-lib'), path.join(d.home, 'notes'), '/opt/data']);
  });

  it('hooks from every source, highest precedence first', () => {
    const hook = (command: string) => ({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });
    writeJson(d.userFile, hook('user.sh'));
    writeJson(d.projectFile, hook('project.sh'));
    writeJson(d.managed, hook('managed.sh'));
    expect(load(d).hooks.map((g) => [(g.hooks[0] as { command?: string } | undefined)?.command, g.source])).toEqual([
      ['managed.sh', 'managed'],
      ['project.sh', 'projectSettings'],
      ['user.sh', 'userSettings'],
    ]);
  });

  it('disableAllHooks turns every hook off; allowManagedHooksOnly keeps managed ones', () => {
    const hook = (command: string) => ({ Stop: [{ hooks: [{ type: 'command', command }] }] });
    writeJson(d.projectFile, { hooks: hook('project.sh') });
    writeJson(d.managed, { hooks: hook('managed.sh'), allowManagedHooksOnly: true });
    const managedOnly = load(d);
    expect(managedOnly.hooks.map((g) => g.source)).toEqual(['managed']);
    expect(managedOnly.hookPolicy).toBe('allowManagedHooksOnly');
    writeJson(d.localFile, { disableAllHooks: true });
    const off = load(d);
    expect(off.hooks).toEqual([]);
    expect(off.hookPolicy).toBe('disableAllHooks');
  });

  it('safe mode keeps the managed hooks and the managed status line only; permission rules and the model stay', () => {
    const hook = (command: string) => ({ Stop: [{ hooks: [{ type: 'command', command }] }] });
    writeJson(d.projectFile, {
      hooks: hook('project.sh'),
      statusLine: { type: 'command', command: 'mine' },
      outputStyle: 'terse',
      model: 'opus',
      permissions: { deny: ['Bash(rm *)'] },
    });
    writeJson(d.managed, { hooks: hook('managed.sh') });
    const safe = load(d, { safeMode: true });
    expect(safe.hooks.map((g) => g.source)).toEqual(['managed']);
    expect(safe.hookPolicy).toBe('safeMode');
    expect(safe.merged.statusLine).toBeUndefined();
    expect(safe.merged.outputStyle).toBeUndefined();
    expect(safe.model).toBe('opus');
    expect(safe.rules.deny).toHaveLength(1);
    writeJson(d.managed, { statusLine: { type: 'command', command: 'policy' } });
    expect(load(d, { safeMode: true }).merged.statusLine).toEqual({ type: 'command', command: 'policy' });
  });
});
