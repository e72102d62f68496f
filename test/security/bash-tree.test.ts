/**
 * Whole-tree readers over a folder holding a Read-denied file (tree-readers.ts, tree-access.ts), as
 * permission decisions: refused in bypassPermissions mode, asked in default/acceptEdits/plan,
 * denied in dontAsk, free when the call runs in the sandbox; what "holds a denied file" means for
 * anchored and loose rules, links, and the reason given.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decidePermission } from '../../src/permissions/decide.js';
import type { PermissionMode } from '../../src/base/permission-modes.js';
import { parseRule } from '../../src/base/rule-parse.js';
import type { PermissionDecision } from '../../src/base/permission-types.js';
import { bashTool, initBashParser } from '../../src/tools/bash/index.js';
import { TREE_READERS } from '../../src/tools/bash/tree-readers.js';
import { ReadState } from '../../src/base/read-state.js';
import type { ToolContext } from '../../src/base/tool.js';
import { READ_RULES, makeWorld, removeAllWorlds, type World } from './bash-support.js';

let world: World;
beforeAll(async () => {
  await initBashParser();
  world = makeWorld({ files: { 'pkg/.env': 'TOKEN=1\n', 'keys/a.pem': 'PEM\n', 'docs/readme.md': 'docs\n' } });
});
afterAll(() => removeAllWorlds());

interface Ask {
  mode?: PermissionMode;
  rules?: readonly string[];
  settings?: Record<string, unknown>;
  cwd?: string;
}

async function decide(command: string, o: Ask = {}): Promise<PermissionDecision> {
  const rules = [...(o.rules ?? READ_RULES)];
  const mode = o.mode ?? 'bypassPermissions';
  const parsed = { allow: [], ask: [], deny: rules.map((r) => parseRule(r, 'projectSettings')) };
  const ctx: ToolContext = {
    cwd: o.cwd ?? world.project,
    projectRoot: world.project,
    additionalDirs: [],
    homeDir: world.home,
    wicketHome: path.join(world.home, '.wicket'),
    sessionId: 's',
    toolUseId: 't',
    signal: new AbortController().signal,
    permissionMode: mode,
    readState: new ReadState(),
    env: {},
    rules: parsed,
    settings: { permissions: { deny: rules }, ...o.settings },
  };
  return decidePermission({ tool: bashTool, input: bashTool.inputSchema.parse({ command }), ctx, rules: parsed, mode });
}

const reasonOf = (d: PermissionDecision) => ('reason' in d ? d.reason : '');

describe('a tree reader over a folder holding a denied file', () => {
  it.each<[PermissionMode, PermissionDecision['behavior']]>([
    ['bypassPermissions', 'deny'],
    ['default', 'ask'],
    ['acceptEdits', 'ask'],
    ['plan', 'ask'],
    ['dontAsk', 'deny'],
  ])('in %s mode: %s', async (mode, behavior) => {
    expect((await decide('grep -r S3CR3T .', { mode })).behavior).toBe(behavior);
  });

  it('names the reader, the folder, the file found and the rule', async () => {
    const d = await decide('grep -r S3CR3T .');
    expect(reasonOf(d)).toContain('grep -r reads every file under ., which holds ./secret, denied by Read(./secret/**)');
    expect(reasonOf(d)).toContain('Grep tool');
    expect((await decide('tar czf /tmp/out.tgz src ~')).behavior).toBe('deny');
    expect(reasonOf(await decide('tar czf /tmp/out.tgz src ~'))).toContain('denied by Read(~/.ssh/**)');
  });

  it('no allow rule approves it', async () => {
    const parsedAllow = await decide('grep -r S3CR3T .', { mode: 'default', rules: [...READ_RULES] });
    expect(parsedAllow.behavior).toBe('ask');
  });

  it('may run when the call runs in the sandbox (which hides the denied files)', async () => {
    const sandbox = { sandbox: { enabled: true } };
    expect((await decide('grep -r S3CR3T .', { settings: sandbox })).behavior).toBe('allow');
    // …but not when it asks to run outside it, or is excluded from it.
    const outside = await decidePermission({
      tool: bashTool,
      input: bashTool.inputSchema.parse({ command: 'grep -r S3CR3T .', dangerouslyDisableSandbox: true }),
      ctx: { ...(await contextFor(sandbox)) },
      rules: { allow: [], ask: [], deny: READ_RULES.map((r) => parseRule(r, 'projectSettings')) },
      mode: 'bypassPermissions',
    });
    expect(outside.behavior).toBe('deny');
    expect((await decide('grep -r S3CR3T .', { settings: { sandbox: { enabled: true, excludedCommands: ['grep:*'] } } })).behavior).toBe('deny');
    // A direct read of a denied file is refused, sandbox or not.
    expect((await decide('cat secret/key.txt', { settings: sandbox })).behavior).toBe('deny');
  });

  async function contextFor(settings: Record<string, unknown>): Promise<ToolContext> {
    return {
      cwd: world.project,
      projectRoot: world.project,
      additionalDirs: [],
      homeDir: world.home,
      wicketHome: path.join(world.home, '.wicket'),
      sessionId: 's',
      toolUseId: 't',
      signal: new AbortController().signal,
      permissionMode: 'bypassPermissions',
      readState: new ReadState(),
      env: {},
      rules: { allow: [], ask: [], deny: READ_RULES.map((r) => parseRule(r, 'projectSettings')) },
      settings: { permissions: { deny: READ_RULES }, ...settings },
    };
  }
});

describe('what holds a denied file', () => {
  it('an anchored rule: only folders at or above it', async () => {
    expect((await decide('grep -r foo src')).behavior).toBe('allow');
    expect((await decide('grep -r foo docs src')).behavior).toBe('allow');
    expect((await decide('grep -r foo src .')).behavior).toBe('deny');
    expect((await decide('grep -r foo secret')).behavior).toBe('deny');
    expect((await decide('grep -r foo ..')).behavior).toBe('deny');
    expect((await decide('grep -r foo /')).behavior).toBe('deny');
  });

  it('an anchored rule whose folder does not exist denies nothing', async () => {
    expect((await decide('grep -r foo .', { rules: ['Read(./nothing-here/**)'] })).behavior).toBe('allow');
  });

  it('matches folder names without case, as deny rules do', async () => {
    expect((await decide('grep -r foo .', { rules: ['Read(./SECRET/**)'] })).behavior).toBe('deny');
  });

  it('a loose rule: only where a matching file really is', async () => {
    expect((await decide('grep -r foo .', { rules: ['Read(.env)'] })).behavior).toBe('deny');
    expect(reasonOf(await decide('grep -r foo .', { rules: ['Read(.env)'] }))).toContain('./pkg/.env');
    expect((await decide('grep -r foo src', { rules: ['Read(.env)'] })).behavior).toBe('allow');
    expect((await decide('grep -r foo pkg', { rules: ['Read(.env)'] })).behavior).toBe('deny');
    expect((await decide('grep -r foo .', { rules: ['Read(**/*.pem)'] })).behavior).toBe('deny');
    expect((await decide('grep -r foo docs', { rules: ['Read(**/*.pem)'] })).behavior).toBe('allow');
    expect((await decide('grep -r foo .', { rules: ['Read(**/*.p12)'] })).behavior).toBe('allow');
  });

  it('an anchored rule ending in a pattern: only where a file matches', async () => {
    expect((await decide('grep -r foo .', { rules: ['Read(./keys/*.pem)'] })).behavior).toBe('deny');
    expect((await decide('grep -r foo .', { rules: ['Read(./keys/*.key)'] })).behavior).toBe('allow');
  });

  it('links: followed by programs that follow them', async () => {
    const w = makeWorld();
    mkdirSync(path.join(w.project, 'lib'));
    symlinkSync(path.join(w.home, '.ssh'), path.join(w.project, 'lib', 'keys'));
    const at = (command: string) => decideIn(w, command);
    expect((await at('grep -r foo lib')).behavior).toBe('allow');
    expect((await at('grep -R foo lib')).behavior).toBe('deny');
    expect((await at('zip -r /tmp/x.zip lib')).behavior).toBe('deny');
    expect((await at('rg -L foo lib')).behavior).toBe('deny');
    expect((await at('grep -r foo lib/keys')).behavior).toBe('deny');
  });

  async function decideIn(w: World, command: string): Promise<PermissionDecision> {
    const saved = world;
    world = w;
    try {
      return await decide(command);
    } finally {
      world = saved;
    }
  }

  it('a folder too big to check counts as holding one (fail closed)', async () => {
    const w = makeWorld();
    const big = path.join(w.project, 'big');
    mkdirSync(big);
    for (let i = 0; i < 105; i++) {
      const d = path.join(big, `d${i}`);
      mkdirSync(d);
      for (let j = 0; j < 100; j++) writeFileSync(path.join(d, `f${j}`), '');
    }
    const d = await decideIn(w, 'grep -r foo big');
    const rules = ['Read(.env)'];
    const saved = world;
    world = w;
    try {
      const loose = await decide('grep -r foo big', { rules });
      expect(loose.behavior).toBe('deny');
      expect(reasonOf(loose)).toContain('too many to check');
    } finally {
      world = saved;
    }
    expect(d.behavior).toBe('allow');
  });
});

describe('the default targets and the folder a command runs in', () => {
  it.each([
    ['grep -r foo', 'deny'],
    ['rg foo', 'deny'],
    ['ag foo', 'deny'],
    ['cd src && grep -r foo', 'allow'],
    ['cd src && grep -r foo ..', 'deny'],
    ['cd secret && rg foo', 'deny'],
    ['cd "$DIR" && grep -r foo .', 'deny'],
    ['grep -r foo "$DIR"', 'deny'],
    ['find . -type f -exec grep -l foo {} +', 'deny'],
    ['find src -type f -exec grep -l foo {} +', 'allow'],
    ['find . -type f -exec ls -l {} +', 'allow'],
    ['find . -type f | xargs wc -l', 'deny'],
    ['find src -type f | xargs wc -l', 'allow'],
    ['cat files.txt | xargs cat', 'deny'],
    ['git ls-files | xargs cat', 'deny'],
    ['rg --files | xargs cat', 'deny'],
    ['rg --files', 'allow'],
    ['ls -R', 'allow'],
    ['tree', 'allow'],
    ['du -a', 'allow'],
    ['tar cf - -T list.txt', 'deny'],
    ['zip -r out.zip . -@', 'deny'],
    ['cp -r src docs /tmp/x', 'allow'],
    ['cp -r -t /tmp/x src secret', 'deny'],
    ['cp -a . /tmp/x', 'deny'],
    ['rsync -av . host:/x', 'deny'],
    ['rsync -av host:/x .', 'allow'],
    ['scp -r . host:/x', 'deny'],
    ['diff -r src docs', 'allow'],
    ['diff -r src .', 'deny'],
    ['7z a x.7z src', 'allow'],
    ['7z a x.7z', 'deny'],
    ['git grep foo -- src', 'allow'],
    ['git grep foo', 'deny'],
    ['git -C src grep foo', 'allow'],
    ['git archive HEAD', 'deny'],
    ['tar -C src -cf - .', 'allow'],
    ['tar -cf - -C src . -C .. secret', 'deny'],
    ['sudo grep -r foo .', 'deny'],
  ])('%s → %s', async (command, behavior) => {
    expect((await decide(command)).behavior, reasonOf(await decide(command))).toBe(behavior);
  });
});

describe('git reads its whole work tree', () => {
  it('from any folder inside it', async () => {
    const w = makeWorld({ git: 'init' });
    const saved = world;
    world = w;
    try {
      expect((await decide('git -C src grep foo')).behavior).toBe('deny');
      expect((await decide('cd src && git grep foo')).behavior).toBe('deny');
      expect((await decide('git grep foo -- src')).behavior).toBe('allow');
    } finally {
      world = saved;
    }
  });
});

describe('the table of tree readers', () => {
  it('covers the programs the issue names', () => {
    for (const p of ['grep', 'egrep', 'rg', 'ag', 'ack', 'git', 'tar', 'zip', '7z', 'cp', 'rsync', 'scp', 'diff', 'find', 'fd', 'xargs']) {
      expect(TREE_READERS[p], p).toBeTypeOf('function');
    }
  });
});
