/**
 * A settings file that cannot be read, seen from every command that reads settings: print mode in
 * every output format and mode stops with exit 2 and nothing on stdout; --init-only, --worktree and
 * --disallowedTools too; no hook of any file runs; `wicket config` shows the error (exit 2);
 * `wicket mcp list` and `wicket plugin list` refuse (exit 2) and start nothing; the advice
 * (`--setting-sources`) works; and a file broken while a run goes on leaves the settings read
 * before (its deny rule included) in force. End to end, through the built binary and the fake API.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../support/fake-anthropic-server.js';
import { runCli, spawnCli, type CliProcess, type CliResult } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { ensureBuilt } from '../e2e/tui-driver.js';

const BROKEN = '{ "permissions": { "deny": "Bash(rm:*)" } }';
const AT = '1:28: permissions.deny must be a list of rule strings';

let project: TmpProject;
let api: FakeAnthropic;

/** The model asks to delete the victim; once it has an answer, it is done. */
const rmVictim = (before?: () => Promise<void>) =>
  reply(async (req: RecordedRequest) => {
    const answered = JSON.stringify(req.body.messages ?? []).includes('tool_result');
    if (!answered) await before?.();
    return answered ? reply().text('done') : reply().toolUse('Bash', { command: 'rm victim' });
  });

async function setup(opts: { git?: boolean; before?: () => Promise<void> } = {}): Promise<void> {
  project = await makeTmpProject({ files: { victim: 'keep me\n' }, ...(opts.git ? { git: true } : {}) });
  api = await startFakeAnthropic({ whenExhausted: rmVictim(opts.before) });
}

const managed = () => path.join(project.home, 'etc', 'managed-settings.json');
const run = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { cwd: project.dir, home: project.home, baseUrl: api.url, env: { WICKET_MANAGED_SETTINGS: managed(), ...env } });
const projectFile = () => project.path('.claude/settings.json');

function expectStopped(r: CliResult, file = projectFile(), at = AT): void {
  const shown = `--- stderr ---\n${r.stderr}\n--- stdout ---\n${r.stdout}`;
  expect(r.code, shown).toBe(2);
  expect(r.stderr, shown).toContain(`${file}:${at}`);
  expect(r.stdout).toBe('');
  expect(api.requests).toHaveLength(0);
  expect(project.exists('victim')).toBe(true);
}

/** A hook that leaves a file behind when it runs. */
const marker = (name: string) => ({ hooks: [{ type: 'command', command: `touch ${JSON.stringify(path.join(project.dir, name))}` }] });

beforeAll(() => ensureBuilt(), 120_000);
afterEach(async () => {
  await api?.close();
  await project?.cleanup();
});

describe('print mode stops before anything runs', () => {
  it.each([
    ['--output-format json, bypass mode', ['--output-format', 'json', '--dangerously-skip-permissions']],
    ['--output-format stream-json --verbose, bypass mode', ['--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions']],
    ['default mode', []],
    ['--permission-mode acceptEdits', ['--permission-mode', 'acceptEdits']],
    ['a prompt on stdin', ['--dangerously-skip-permissions']],
  ])('%s: exit 2, the place on stderr, nothing on stdout', async (_name, args) => {
    await setup();
    await project.write('.claude/settings.json', BROKEN);
    const prompt = _name.includes('stdin') ? [] : ['delete the victim'];
    const r = await runCli(['-p', ...prompt, ...args], {
      cwd: project.dir,
      home: project.home,
      baseUrl: api.url,
      env: { WICKET_MANAGED_SETTINGS: managed() },
      stdin: 'delete the victim',
    });
    expectStopped(r);
  });

  it("no hook of any file runs: not the broken file's, not a readable file's", async () => {
    await setup();
    await project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: 'Bash(rm:*)' }, hooks: { SessionStart: [marker('project-hook')] } }));
    await project.writeHome(
      '.claude/settings.json',
      JSON.stringify({ hooks: { SessionStart: [marker('user-hook')], UserPromptSubmit: [marker('prompt-hook')] } }),
    );
    const r = await run(['-p', 'delete the victim', '--dangerously-skip-permissions']);
    expectStopped(r, projectFile(), '1:24: permissions.deny must be a list');
    for (const name of ['project-hook', 'user-hook', 'prompt-hook']) expect(project.exists(name), name).toBe(false);
  });

  it('--init-only: exit 2, and the Setup hooks do not run', async () => {
    await setup();
    await project.write('.claude/settings.local.json', BROKEN);
    await project.writeHome('.claude/settings.json', JSON.stringify({ hooks: { Setup: [marker('setup-hook')] } }));
    const r = await run(['--init-only']);
    expectStopped(r, project.path('.claude/settings.local.json'));
    expect(project.exists('setup-hook')).toBe(false);
  });

  it('--worktree: exit 2 before any worktree is made', async () => {
    await setup({ git: true });
    await project.write('.claude/settings.json', BROKEN);
    const r = await run(['-p', 'delete the victim', '--worktree', 'w1', '--dangerously-skip-permissions']);
    expectStopped(r);
    expect(project.exists('.claude/worktrees/w1')).toBe(false);
  });

  it('a --disallowedTools value that is not a rule: exit 2, naming it', async () => {
    await setup();
    const r = await run(['-p', 'delete the victim', '--dangerously-skip-permissions', '--disallowedTools', 'Bash(rm']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--disallowedTools:1:1: "Bash(rm" cannot be read as a rule: missing closing parenthesis');
    expect(project.exists('victim')).toBe(true);
    expect(api.requests).toHaveLength(0);
  });

  it('a broken managed policy stops even with --setting-sources "" (the policy is always read), and offers no way around it', async () => {
    await setup();
    mkdirSync(path.dirname(managed()), { recursive: true });
    writeFileSync(managed(), '{ "permissions": { "deny": ["Bash(rm:*)"] }, }}');
    const r = await run(['-p', 'delete the victim', '--dangerously-skip-permissions', '--setting-sources', '']);
    expectStopped(r, managed(), '1:47: unexpected "}" after the end of the JSON value');
    expect(r.stderr).toContain('the managed settings policy cannot be read, and nothing runs without it');
    expect(r.stderr).not.toContain('--setting-sources');
  });

  it("the advice works: --setting-sources leaving out the broken file runs, and the other files' deny rules hold", async () => {
    await setup();
    await project.write('.claude/settings.json', BROKEN);
    await project.writeHome('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
    const stopped = await run(['-p', 'delete the victim', '--dangerously-skip-permissions']);
    expect(stopped.stderr).toContain('leave it out with --setting-sources "user,local"');
    const r = await run(['-p', 'delete the victim', '--dangerously-skip-permissions', '--setting-sources', 'user,local']);
    expect(r.code, r.stderr).toBe(0);
    expect(project.exists('victim')).toBe(true);
    expect(JSON.stringify(api.requests.at(-1)?.body.messages)).toContain('Bash(rm:*)');
  });
});

describe('the commands that read settings', () => {
  it('wicket config shows the error at file:line:column with the other sources, and exits 2', async () => {
    await setup();
    await project.write('.claude/settings.json', BROKEN);
    await project.writeHome('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Read(~/.ssh/**)'] } }));
    const r = await run(['config']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/projectSettings\s+UNREADABLE/);
    expect(r.stdout).toContain(`${projectFile()}:${AT}`);
    expect(r.stdout).toMatch(/Read\(~\/\.ssh\/\*\*\)\s+userSettings/);
  });

  it('wicket mcp list refuses (exit 2) and starts no server', async () => {
    await setup();
    await project.write('.claude/settings.local.json', BROKEN);
    const started = project.path('server-started');
    writeFileSync(
      path.join(project.home, '.claude.json'),
      JSON.stringify({ mcpServers: { m: { type: 'stdio', command: 'sh', args: ['-c', `touch ${JSON.stringify(started)}`] } } }),
    );
    const r = await run(['mcp', 'list']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${project.path('.claude/settings.local.json')}:${AT}`);
    expect(r.stderr).not.toContain('--setting-sources');
    expect(existsSync(started)).toBe(false);
  });

  it('wicket plugin list refuses (exit 2)', async () => {
    await setup();
    await project.writeHome('.claude/settings.json', '{ "enabledPlugins": { "a@b": true } ');
    const r = await run(['plugin', 'list']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path.join(project.home, '.claude/settings.json')}:1:37: expected "}" to close the object`);
  });
});

describe('a file broken while the run goes on', () => {
  it('leaves the settings read before in force: the deny rule holds, and stderr says where the file is broken', async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let child: CliProcess | undefined;
    const said = 'changed, but the settings cannot be read';
    // While the first request waits, the file breaks (print mode watches the files from 0.5 s on:
    // it is written again until wicket has said so).
    await setup({
      before: async () => {
        for (let i = 0; i < 20 && !child!.stderr().includes(said); i++) {
          await sleep(300);
          await project.write('.claude/settings.json', `{ "permissions": { "deny": [] ${' '.repeat(i % 2)}`);
        }
      },
    });
    await project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
    child = spawnCli(['-p', 'delete the victim', '--dangerously-skip-permissions'], {
      cwd: project.dir,
      home: project.home,
      baseUrl: api.url,
      env: { WICKET_MANAGED_SETTINGS: managed() },
    });
    const r = await child.result;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${projectFile()} ${said}:`);
    expect(r.stderr).toMatch(new RegExp(`${projectFile().replace(/[.]/g, '\\.')}:1:3[12]: expected "\\}" to close the object`));
    expect(r.stderr).toContain('The settings read before stay in force, deny rules and hooks included, until this is fixed.');
    expect(project.exists('victim')).toBe(true);
    expect(JSON.stringify(api.requests.at(-1)?.body.messages)).toContain('Bash(rm:*)');
  });
});
