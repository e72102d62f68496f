/**
 * The sandbox's plan, without bubblewrap: which deny rules become which masks, what is protected,
 * which loopback names bypass the proxy, which words of a hook command are files.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRule } from '../../../src/base/rule-parse.js';
import { words } from '../../../src/sandbox/config-files.js';
import { denyTargets, sandboxDenyRules } from '../../../src/sandbox/deny-paths.js';
import { planFilesystem } from '../../../src/sandbox/fs-plan.js';
import { writableRoots } from '../../../src/sandbox/launch.js';
import { proxyEnv } from '../../../src/sandbox/network.js';
import { protection } from '../../../src/sandbox/protect.js';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-plan-')));
const project = path.join(root, 'p');
const home = path.join(root, 'h');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, content = 'x'): string {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  return abs;
}

put('p/secret/a.txt');
put('p/SECRET/b.txt');
put('p/src/.env');
put('p/config/prod.key');
put('p/config/ok.txt');
put('h/.ssh/id_rsa');
put('h/code/.env');
symlinkSync(path.join(project, 'config'), path.join(project, 'cfg-link'));

const ctx = { cwd: project, projectRoot: project, homeDir: home, writableRoots: [project], deadline: Date.now() + 30_000 };
const rules = (...raw: string[]) => raw.map((r) => parseRule(r, 'userSettings'));

describe('deny rules as paths', () => {
  it('names the folder of `dir/**`, every letter case of it, and the real path behind a link', async () => {
    const t = await denyTargets(sandboxDenyRules(rules('Read(./secret/**)', 'Read(./cfg-link/*.key)'), [], []), ctx);
    expect(t.read.map((x) => x.path).sort()).toEqual(
      [path.join(project, 'SECRET'), path.join(project, 'config/prod.key'), path.join(project, 'secret')].sort(),
    );
    expect(t.read[0]!.rule).toMatch(/^Read\(/);
  });

  it('expands a loose pattern below the project, the working folder and home', async () => {
    const t = await denyTargets(sandboxDenyRules(rules('Read(.env)'), [], []), ctx);
    expect(t.read.map((x) => x.path).sort()).toEqual([path.join(home, 'code/.env'), path.join(project, 'src/.env')]);
  });

  it('takes sandbox.filesystem.denyRead and denyWrite, named as such', async () => {
    const t = await denyTargets(sandboxDenyRules([], [path.join(home, '.ssh')], [path.join(project, 'config/ok.txt')]), ctx);
    expect(t.read).toEqual([{ path: path.join(home, '.ssh'), rule: `sandbox.filesystem.denyRead ${path.join(home, '.ssh')}` }]);
    expect(t.write.map((x) => x.path)).toEqual([path.join(project, 'config/ok.txt')]);
  });

  it('keeps a missing Edit-denied path from being created', async () => {
    const t = await denyTargets(sandboxDenyRules(rules('Edit(./dist/**)', 'Edit(./new.txt)'), [], []), ctx);
    expect(t.writeMissing).toEqual([
      { path: path.join(project, 'dist'), kind: 'dir' },
      { path: path.join(project, 'new.txt'), kind: 'file' },
    ]);
  });

  it('refuses a pattern matched from the root of the filesystem', async () => {
    const t = await denyTargets(sandboxDenyRules(rules('Read(//**/*.pem)'), [], []), ctx);
    expect(t.problems).toEqual([expect.stringContaining('Read(//**/*.pem) matches by pattern from the root of the filesystem')]);
  });
});

describe('the filesystem plan', () => {
  const protect = () =>
    protection({
      projectRoot: project,
      homeDir: home,
      wicketHome: path.join(home, '.wicket'),
      env: {},
      settings: {},
      mcpDirs: [project],
      writableRoots: [project],
      deadline: Date.now() + 30_000,
    });

  it('masks configuration that does not exist yet, and pins the folders above protected paths', () => {
    const plan = planFilesystem({
      roots: [project],
      cwd: project,
      deny: { read: [], write: [{ path: path.join(project, 'config/ok.txt'), rule: 'Edit(./config/ok.txt)' }], writeMissing: [], problems: [] },
      protection: protect(),
    });
    expect(plan.hideDirs).toEqual(expect.arrayContaining([path.join(project, '.claude'), path.join(project, '.git')]));
    expect(plan.hideFiles).toEqual(expect.arrayContaining(['.mcp.json', 'CLAUDE.md', 'CLAUDE.local.md'].map((n) => path.join(project, n))));
    expect(plan.mountPoints).toHaveLength(5);
    expect(plan.readOnly).toEqual([path.join(project, 'config/ok.txt')]);
    expect(plan.writable).toEqual([project, path.join(project, 'config')]);
    expect(plan.problems).toEqual([]);
  });

  it('refuses a Read deny that would hide the project or the working folder', () => {
    const plan = planFilesystem({
      roots: [project],
      cwd: path.join(project, 'src'),
      deny: { read: [{ path: path.join(project, 'src'), rule: 'Read(./src/**)' }], write: [], writeMissing: [], problems: [] },
      protection: protect(),
    });
    expect(plan.problems).toEqual([expect.stringMatching(/^Read\(\.\/src\/\*\*\) hides .*src, which holds .*src; nothing can run/)]);
  });

  it('leaves allowWrite folders inside the user configuration read-only', () => {
    mkdirSync(path.join(home, '.claude/skills'), { recursive: true });
    mkdirSync(path.join(home, 'cache'), { recursive: true });
    const roots = writableRoots(
      { allowWrite: [path.join(home, '.claude/skills'), path.join(home, 'cache')] },
      { cwd: project, projectRoot: project, additionalDirs: [], homeDir: home, wicketHome: path.join(home, '.wicket'), env: {}, settings: {} },
    );
    expect(roots).toEqual([project, path.join(home, 'cache')]);
  });
});

describe('the proxy variables', () => {
  it('leave loopback names direct, except those allowedDomains allows (reached through the proxy)', () => {
    expect(proxyEnv({ allowedDomains: ['example.com'], deniedDomains: [] }).NO_PROXY).toBe('localhost,127.0.0.1,::1');
    expect(proxyEnv({ allowedDomains: ['localhost'], deniedDomains: [] }).NO_PROXY).toBe('127.0.0.1,::1');
    expect(proxyEnv({ allowedDomains: ['*'], deniedDomains: [] }).NO_PROXY).toBe('');
    expect(proxyEnv({ allowedDomains: ['localhost'], deniedDomains: [] }).HTTPS_PROXY).toBe('http://127.0.0.1:3128');
  });
});

describe('words of a hook command', () => {
  it.each([
    ['bash "$CLAUDE_PROJECT_DIR"/scripts/hook.sh', ['bash', '$CLAUDE_PROJECT_DIR/scripts/hook.sh']],
    ["node 'a b.js' --x=1 && ./c.sh; echo \\\"q", ['node', 'a b.js', '--x=1', './c.sh', 'echo', '"q']],
    ['python3 -c "print(1)" | tee log', ['python3', '-c', 'print(1)', 'tee', 'log']],
  ])('%s', (line, expected) => {
    expect(words(line)).toEqual(expected);
  });
});

describe('a program kept under /tmp', () => {
  it("shows the program's package read-only, and still hides what is denied inside it", async () => {
    const { programDirs } = await import('../../../src/sandbox/index.js');
    const server = put('tools/srv/lib/server.mjs');
    put('tools/srv/package.json', '{}');
    const secret = put('tools/srv/secret.txt');
    const dirs = programDirs({ command: process.execPath, args: [server, '--flag'] }, project);
    expect(dirs).toContain(path.join(root, 'tools/srv'));
    const deny = await denyTargets(sandboxDenyRules(rules(`Read(/${secret})`), [], []), ctx);
    const plan = planFilesystem({
      roots: [project],
      cwd: project,
      deny,
      protection: protection({
        projectRoot: project,
        homeDir: home,
        wicketHome: path.join(home, '.wicket'),
        env: {},
        settings: {},
        mcpDirs: [],
        writableRoots: [project],
        deadline: Date.now() + 30_000,
      }),
      visible: dirs,
    });
    // root is under the temporary folder, which the sandbox replaces by its own.
    expect(plan.visible).toEqual([path.join(root, 'tools/srv')]);
    expect(plan.hideFiles).toContain(secret);
  });

  it('shows nothing for a program found on the PATH, or a word that is not a file', async () => {
    const { programDirs } = await import('../../../src/sandbox/index.js');
    expect(programDirs({ command: 'node', args: ['-e', 'x', 'a/b'] }, project)).toEqual([]);
  });
});
