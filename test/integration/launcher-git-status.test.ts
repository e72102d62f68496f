/**
 * The git status in the system prompt when wicket runs as a command: the launcher's shell starts
 * `git status` before Node does and leaves its answer in wicket's cache, which the run reads and
 * removes. The prompt must say what git says, however the run was started, and nothing may be left
 * behind or handed to the processes wicket starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n', 'sub/keep.txt': 'k\n' } });
type Body = { system?: Array<{ text: string }> };

const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: t.project.dir, stdio: 'ignore' });

function systemText(i = 0): string {
  return ((t.api.requests[i]!.body as Body).system ?? []).map((b) => b.text).join('\n');
}

function leftovers(): string[] {
  const cache = path.join(t.project.home, '.wicket', 'cache');
  return existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('git-status')) : [];
}

function makeRepository(): void {
  git('init', '-q', '-b', 'topic');
  git('add', 'a.txt');
  git('commit', '-qm', 'first');
  execFileSync('sh', ['-c', 'echo more >> a.txt; echo new > new.txt'], { cwd: t.project.dir });
}

describe('the git status the launcher starts', () => {
  it('reaches the system prompt as git says it, leaves nothing in the cache and hides the variable from tools', async () => {
    makeRepository();
    mkdirSync(path.join(t.project.home, '.wicket', 'cache'), { recursive: true });
    t.api.script(reply().toolUse('Bash', { command: 'echo "var=${WICKET_GIT_STATUS-none}"' }, { id: 'toolu_env' }), reply().text('done'));
    const r = await t.run(['-p', 'look', '--allowedTools', 'Bash'], { asCommand: true });
    expectExit(r, 0);
    const system = systemText();
    expect(system).toContain('Is a git repository: yes');
    expect(system).toContain('Git branch: topic');
    expect(system).toMatch(/^ M a\.txt$/m);
    expect(system).toMatch(/^\?\? new\.txt$/m);
    expect(JSON.stringify(toolResultIn(t.api.requests[1]!.body, 'toolu_env'))).toContain('var=none');
    expect(leftovers()).toEqual([]);
  });

  it('says the same when Node starts git itself: the first run (no cache yet), and `node bin/wicket.js`', async () => {
    makeRepository();
    t.api.script(reply().text('one'), reply().text('two'));
    expectExit(await t.run(['-p', 'first'], { asCommand: true }), 0);
    expectExit(await t.run(['-p', 'second'], { env: { WICKET_GIT_STATUS: path.join(t.project.home, 'git-status-1') } }), 0);
    for (const i of [0, 1]) {
      expect(systemText(i)).toContain('Git branch: topic');
      expect(systemText(i)).toMatch(/^\?\? new\.txt$/m);
    }
    expect(leftovers()).toEqual([]);
  });

  it('says "not a git repository" outside one, also beside an empty .git folder', async () => {
    mkdirSync(path.join(t.project.home, '.wicket', 'cache'), { recursive: true });
    mkdirSync(path.join(t.project.dir, '.git'));
    t.api.script(reply().text('plain'));
    expectExit(await t.run(['-p', 'hi'], { asCommand: true }), 0);
    expect(systemText()).toContain('Is a git repository: no');
    expect(leftovers()).toEqual([]);
  });
});
