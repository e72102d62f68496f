/** Agent `isolation: "worktree"`: the sub-agent works in a git worktree of its own, through the built binary. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply, type RecordedRequest } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ git: true, files: { 'README.md': 'hello\n' } });
const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const git = (...args: string[]) => execFileSync('git', args, { cwd: t.project.dir, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } }).trim();
const commitAll = () => {
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
};
/** The working directory a request's system prompt names. */
const workdirOf = (req: RecordedRequest) => /Working directory: (.*)/.exec(JSON.stringify((req.body as { system: unknown }).system).replace(/\\n/g, '\n'))![1]!;
const run = () => t.run(['-p', 'try it in a worktree', '--permission-mode', 'acceptEdits', '--output-format', 'json'], { env: GIT_ENV });

describe('Agent isolation: worktree', () => {
  it('the sub-agent edits its own worktree on a new branch; the project stays as it was', async () => {
    commitAll();
    let workdir = '';
    t.api.script(
      reply().toolUse('Agent', { description: 'isolated change', prompt: 'add new.txt', isolation: 'worktree' }, { id: 'toolu_agent' }),
      reply((req) => {
        workdir = workdirOf(req);
        return reply().toolUse('Write', { file_path: path.join(workdir, 'new.txt'), content: 'made in the worktree\n' });
      }),
      reply().text('Added new.txt.'),
      reply().text('done'),
    );
    expectExit(await run(), 0);
    expect(workdir).toMatch(new RegExp(`${t.project.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.claude/worktrees/agent-[0-9a-f]+$`));
    expect(readFileSync(path.join(workdir, 'new.txt'), 'utf8')).toBe('made in the worktree\n');
    expect(existsSync(path.join(t.project.dir, 'new.txt'))).toBe(false);
    const result = JSON.stringify(toolResultIn(t.api.messageRequests()[3]!.body, 'toolu_agent').content);
    expect(result).toContain('Added new.txt.');
    expect(result).toContain(`is in the worktree ${workdir}, on branch wicket/agent-`);
    expect(git('worktree', 'list')).toContain(workdir);
    expect(git('status', '--porcelain')).toBe('');
  });

  it('a worktree the agent left unchanged is removed, with its branch', async () => {
    commitAll();
    t.api.script(
      reply().toolUse('Agent', { description: 'look only', prompt: 'just look', isolation: 'worktree' }, { id: 'toolu_agent' }),
      reply().text('Nothing to change.'),
      reply().text('done'),
    );
    expectExit(await run(), 0);
    const result = JSON.stringify(toolResultIn(t.api.messageRequests()[2]!.body, 'toolu_agent').content);
    expect(result).toContain('No files changed; the worktree was removed.');
    expect(git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(git('branch', '--list', 'wicket/*')).toBe('');
  });

  it('an agent file can ask for it; outside a repository with commits the call is refused with the reason', async () => {
    mkdirSync(path.join(t.project.dir, '.claude', 'agents'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'agents', 'iso.md'), '---\nname: iso\ndescription: isolated\nisolation: worktree\n---\nWork alone.\n');
    t.api.script(reply().toolUse('Agent', { description: 'x', prompt: 'y', subagent_type: 'iso' }, { id: 'toolu_agent' }), reply().text('ok'));
    expectExit(await run(), 0);
    const result = JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_agent').content);
    expect(result).toContain('needs a commit to start from');
  });
});

describe('--worktree', () => {
  it('the session works in .claude/worktrees/<name> on branch worktree-<name>; its changes stay there', async () => {
    commitAll();
    let workdir = '';
    t.api.script(
      reply((req) => {
        workdir = workdirOf(req);
        return reply().toolUse('Write', { file_path: path.join(workdir, 'feature.txt'), content: 'x\n' });
      }),
      reply().text('done'),
    );
    const r = await t.run(['-p', 'build it', '-w', 'feature-a', '--permission-mode', 'acceptEdits'], { env: GIT_ENV });
    expectExit(r, 0);
    expect(workdir).toBe(path.join(t.project.dir, '.claude', 'worktrees', 'feature-a'));
    expect(existsSync(path.join(workdir, 'feature.txt'))).toBe(true);
    expect(existsSync(path.join(t.project.dir, 'feature.txt'))).toBe(false);
    expect(r.stderr).toContain(`is in the worktree ${workdir}, on branch worktree-feature-a`);
    expect(git('status', '--porcelain')).toBe('');
  });

  it('an unchanged worktree is removed at the end; a name that would leave the folder is refused', async () => {
    commitAll();
    t.api.script(reply().text('nothing to do'));
    const r = await t.run(['-p', 'look', '--worktree', 'peek'], { env: GIT_ENV });
    expectExit(r, 0);
    expect(r.stderr).toContain('No files changed; the worktree was removed.');
    expect(existsSync(path.join(t.project.dir, '.claude', 'worktrees', 'peek'))).toBe(false);
    const bad = await t.run(['-p', 'x', '--worktree', '../escape'], { env: GIT_ENV });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not a usable name');
  });

  it('starts from the remote default branch when known, or from HEAD with worktree.baseRef "head"', async () => {
    commitAll();
    git('update-ref', 'refs/remotes/origin/main', git('rev-parse', 'HEAD'));
    git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    writeFileSync(path.join(t.project.dir, 'local.txt'), 'unpushed\n');
    commitAll();
    const readLocal = () => [
      reply((req) => reply().toolUse('Read', { file_path: path.join(workdirOf(req), 'local.txt') }, { id: 'toolu_r' })),
      reply().text('done'),
    ];
    t.api.script(...readLocal());
    expectExit(await t.run(['-p', 'look', '-w', 'fresh', '--allowedTools', 'Read'], { env: GIT_ENV }), 0);
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_r'))).toContain('does not exist');
    writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ worktree: { baseRef: 'head' } }));
    t.api.script(...readLocal());
    expectExit(await t.run(['-p', 'look', '-w', 'head', '--allowedTools', 'Read'], { env: GIT_ENV }), 0);
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[3]!.body, 'toolu_r'))).toContain('unpushed');
  });
});
