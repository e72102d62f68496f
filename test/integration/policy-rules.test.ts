/**
 * `wicket rules explain|test|suggest` through the built binary: a call's trace naming the deciding
 * rule, its file and line; the calls of sessions the binary wrote itself (wicket's gate traces) and
 * of a Claude Code transcript replayed against today's settings and a candidate file, without
 * running anything; and allow rules mined from approved calls. Needs `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectSlug } from '../../src/session/paths.js';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

const CC_ID = '7d3f2b9e-5a41-4c8e-9f0d-2b6e8a1c4d57';
const CC_FIXTURE = path.join(REPO_ROOT, 'test/fixtures/sessions/policy', `${CC_ID}.jsonl`);
/** Written by Claude Code 2.1.332 itself (test/fixtures/sessions/README.md), in /tmp/sess-scratch/pfcc. */
const CC_REAL_ID = '97422e62-6a73-4136-9ad4-f67075850dce';

let server: FakeAnthropic;
let project: TmpProject;

const settings = { permissions: { deny: ['Bash(rm *)', 'Read(./.env)'], allow: ['Bash(git status)'] } };

beforeEach(async () => {
  server = await startFakeAnthropic();
  project = await makeTmpProject({ settings, files: { '.env': 'SECRET=1\n', 'package.json': '{"name":"pf"}\n' } });
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const run = (args: string[]) => runCli(args, { cwd: project.dir, home: project.home, baseUrl: server.url });

/** The Claude Code fixture, with the project's folder in place of the one it was written in, in this project's sessions folder. */
async function addClaudeCodeSession(): Promise<void> {
  const text = readFileSync(CC_FIXTURE, 'utf8').replaceAll('/tmp/sess-scratch/pf', project.dir);
  await project.writeHome(`.claude/projects/${projectSlug(project.dir)}/${CC_ID}.jsonl`, text);
}

/** The transcript Claude Code wrote, with the project's folder in place of the one it ran in. */
async function addRealClaudeCodeSession(): Promise<void> {
  const text = readFileSync(path.join(REPO_ROOT, 'test/fixtures/sessions/policy', `${CC_REAL_ID}.jsonl`), 'utf8').replaceAll(
    '/tmp/sess-scratch/pfcc',
    project.dir,
  );
  await project.writeHome(`.claude/projects/${projectSlug(project.dir)}/${CC_REAL_ID}.jsonl`, text);
}

describe('wicket rules explain', () => {
  it('names the deny rule, its file and its line, and runs nothing', async () => {
    const r = expectExit(await run(['rules', 'explain', 'Bash(rm -rf build)']), 0);
    expect(r.stdout).toContain('permission  deny  deny rule Bash(rm *) [projectSettings]');
    const line =
      readFileSync(project.path('.claude/settings.json'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('"Bash(rm *)"')) + 1;
    expect(r.stdout).toContain(`.claude/settings.json:${line}`);
    expect(server.requests).toHaveLength(0);
  });

  it('takes a tool and a JSON input; a path rule decides for Read', async () => {
    const r = expectExit(await run(['rules', 'explain', 'Read', JSON.stringify({ file_path: '.env' }), '--json']), 0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ decision: 'deny', gate: 'permission', rule: { rule: 'Read(./.env)', list: 'deny', source: 'projectSettings' } });
    expect(out.rule.file).toBe(project.path('.claude/settings.json'));
    expect(r.stdout).not.toContain('SECRET');
  });

  it('says which gate refuses a nonsense input, and which calls would ask', async () => {
    const bad = expectExit(await run(['rules', 'explain', 'Edit', '{"file_path":3}']), 0);
    expect(bad.stdout).toContain('refused at the parse gate');
    const ask = expectExit(await run(['rules', 'explain', 'Bash(make deploy)']), 0);
    expect(ask.stdout).toContain('would ask at the permission gate');
    expect(ask.stdout).toContain('decided by: tool default');
    const allowed = expectExit(await run(['rules', 'explain', 'Bash(git status)']), 0);
    expect(allowed.stdout).toMatch(/allow rule Bash\(git status\) \[projectSettings\] in \.claude\/settings\.json:\d+/);
  });

  it('refuses what is not a call, with the usage', async () => {
    const r = expectExit(await run(['rules', 'explain', 'Bash', 'not json']), 2);
    expect(r.stderr).toContain('not JSON');
    expectExit(await run(['rules', 'nonsense']), 2);
  });
});

describe('wicket rules test', () => {
  it('replays a session wicket wrote: allow → ask when the rule that allowed it is gone, and nothing runs again', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch made.txt' }), reply().toolUse('Bash', { command: 'rm -f made.txt' }), reply().text('done'));
    expectExit(await run(['-p', 'make a file', '--allowedTools', 'Bash(touch:*)']), 0);
    expect(project.exists('made.txt')).toBe(true);
    await import('node:fs/promises').then((fs) => fs.rm(project.path('made.txt')));
    const r = expectExit(await run(['rules', 'test']), 1);
    expect(r.stdout).toContain('allow → ask  Bash(touch made.txt)');
    expect(r.stdout).toContain('recorded: allow rule Bash(touch:*) [cli]');
    expect(r.stdout).toContain('2 calls in 1 sessions replayed');
    // rm was denied by the project's rule then and now: no flip.
    expect(r.stdout).not.toContain('rm -f made.txt');
    expect(project.exists('made.txt')).toBe(false);
  });

  it('compares the current settings with a candidate file, as JSON for CI; exit 0 when nothing flips', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch made.txt' }), reply().text('done'));
    expectExit(await run(['-p', 'make a file', '--allowedTools', 'Bash(touch:*)']), 0);
    await project.write('candidate.json', JSON.stringify({ permissions: { ...settings.permissions, allow: ['Bash(touch:*)'] } }, null, 2));
    const r = expectExit(await run(['rules', 'test', '--settings', 'candidate.json', '--json']), 1);
    const out = JSON.parse(r.stdout);
    expect(out.compared).toBe('current-vs-candidate');
    expect(out.flips).toHaveLength(1);
    expect(out.flips[0]).toMatchObject({ tool: 'Bash', change: 'ask → allow', after: { rule: { rule: 'Bash(touch:*)', list: 'allow' } } });
    expect(out.flips[0].after.rule.file).toBe(project.path('candidate.json'));
    await project.write('same.json', JSON.stringify(settings));
    expectExit(await run(['rules', 'test', '--settings', 'same.json']), 0);
    expectExit(await run(['rules', 'test', '--settings', 'missing.json']), 2);
    expectExit(await run(['rules', 'test', '--since', 'yesterdayish']), 2);
  });

  it("replays a Claude Code transcript: the person's answer is an ask, and a new deny rule flips it", async () => {
    await addClaudeCodeSession();
    const r = expectExit(await run(['rules', 'test', '--session', CC_ID]), 1);
    // The rejected rm: asked then, denied by the project's rule now.
    expect(r.stdout).toMatch(/ask → deny {2}Bash\(rm -rf dist\)/);
    expect(r.stdout).toContain('now: deny rule Bash(rm *) [projectSettings] in .claude/settings.json:');
    // The Read a rule allowed then is allowed now (read-only, inside the project): no flip.
    expect(r.stdout).not.toContain('package.json');
    expectExit(await run(['rules', 'test', '--session', 'no-such-session']), 0);
  });
});

describe('wicket rules test on a transcript Claude Code wrote', () => {
  it('reads its decisions (a --allowedTools rule, a refusal in print mode) and flips the build the project does not allow', async () => {
    await addRealClaudeCodeSession();
    const r = expectExit(await run(['rules', 'test', '--session', CC_REAL_ID, '--json']), 1);
    const out = JSON.parse(r.stdout);
    expect(out.calls).toBe(3);
    expect(out.flips).toEqual([expect.objectContaining({ tool: 'Bash', input: expect.objectContaining({ command: 'npm run build' }), change: 'allow → ask' })]);
    const text = expectExit(await run(['rules', 'test', '--session', CC_REAL_ID]), 1);
    expect(text.stdout).toContain('allow → ask  Bash(npm run build)');
    expect(text.stdout).not.toContain('rm -rf dist');
    expect(text.stdout).toContain('recorded: config cliArg');
    expect(server.requests).toHaveLength(0);
  });
});

describe('wicket rules suggest', () => {
  it('proposes the rule for calls people approved, with the count and the riskiest call', async () => {
    await addClaudeCodeSession();
    const r = expectExit(await run(['rules', 'suggest', '--json']), 0);
    const out = JSON.parse(r.stdout) as Array<{ rule: string; count: number; riskiest: { input: { command?: string } } }>;
    const build = out.find((p) => p.rule.startsWith('Bash(npm run build'));
    expect(build).toMatchObject({ count: 2 });
    expect(build?.riskiest.input.command).toBe('npm run build -- --verbose');
    expect(out.some((p) => p.rule.includes('rm'))).toBe(false);
    const text = expectExit(await run(['rules', 'suggest', '--min', '1']), 0);
    expect(text.stdout).toContain('mcp__tracker__create_issue');
  });
});
