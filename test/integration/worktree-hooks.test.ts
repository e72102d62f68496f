/** WorktreeCreate / WorktreeRemove hooks through the built binary: they make and remove worktrees in place of git. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply, type RecordedRequest } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'README.md': 'hello\n' } });

/** Makes `$HOME/worktrees/<name>` (a copy of README.md), logging its input; progress goes to stdout before the path. */
const CREATE = `input=$(cat)
printf '%s\\n' "$input" >> "$CLAUDE_PROJECT_DIR/create.log"
name=$(printf '%s' "$input" | sed -E 's/.*"name":"([^"]*)".*/\\1/')
dir="$HOME/worktrees/$name"
mkdir -p "$dir" && cp "$CLAUDE_PROJECT_DIR/README.md" "$dir/"
echo "checked out $name"
echo "$dir"
`;
const REMOVE = `input=$(cat)
printf '%s\\n' "$input" >> "$CLAUDE_PROJECT_DIR/remove.log"
rm -rf "$(printf '%s' "$input" | sed -E 's/.*"worktree_path":"([^"]*)".*/\\1/')"
`;

async function hooks(create = CREATE, remove: string | undefined = REMOVE): Promise<void> {
  await t.project.write('create.sh', create);
  if (remove) await t.project.write('remove.sh', remove);
  const cmd = (f: string) => [{ hooks: [{ type: 'command', command: `bash "$CLAUDE_PROJECT_DIR/${f}"` }] }];
  await t.project.write(
    '.claude/settings.json',
    JSON.stringify({ hooks: { WorktreeCreate: cmd('create.sh'), ...(remove ? { WorktreeRemove: cmd('remove.sh') } : {}) } }),
  );
}

const logOf = (name: string) =>
  t.project.exists(name)
    ? readFileSync(t.project.path(name), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
const workdirOf = (req: RecordedRequest) => /Working directory: (.*)/.exec(JSON.stringify((req.body as { system: unknown }).system).replace(/\\n/g, '\n'))![1]!;
const home = (...p: string[]) => path.join(t.project.home, 'worktrees', ...p);

describe('--worktree with WorktreeCreate / WorktreeRemove hooks, outside any git repository', () => {
  it('the hook makes the worktree the session works in; left unchanged, the WorktreeRemove hook removes it', async () => {
    await hooks();
    let workdir = '';
    t.api.script(
      reply((req) => {
        workdir = workdirOf(req);
        return reply().text('nothing to change');
      }),
    );
    const r = await t.run(['-p', 'look around', '-w', 'feat', '--output-format', 'json']);
    expectExit(r, 0);
    expect(workdir).toBe(home('feat'));
    const [created] = logOf('create.log');
    expect(created).toMatchObject({ hook_event_name: 'WorktreeCreate', name: 'feat', cwd: t.project.dir, session_id: r.json<any>().session_id });
    expect(logOf('remove.log')).toEqual([expect.objectContaining({ hook_event_name: 'WorktreeRemove', worktree_path: home('feat') })]);
    expect(existsSync(home('feat'))).toBe(false);
    expect(r.stderr).toContain('No files changed; the WorktreeRemove hooks removed the worktree.');
  });

  it('a worktree the session changed stays, and says where it is', async () => {
    await hooks();
    t.api.script(
      reply((req) => reply().toolUse('Write', { file_path: path.join(workdirOf(req), 'new.txt'), content: 'x\n' })),
      reply().text('done'),
    );
    const r = await t.run(['-p', 'add a file', '-w', 'keep', '--permission-mode', 'acceptEdits']);
    expectExit(r, 0);
    expect(readFileSync(home('keep', 'new.txt'), 'utf8')).toBe('x\n');
    expect(t.project.exists('new.txt')).toBe(false);
    expect(logOf('remove.log')).toEqual([]);
    expect(r.stderr).toContain(`The work is in the worktree ${home('keep')} (made by the WorktreeCreate hook)`);
  });

  it('a failing hook, or one that gives no folder, stops the run before any request', async () => {
    await hooks('echo "disk full" >&2; exit 1\n');
    const failed = await t.run(['-p', 'x', '-w', 'nope']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('wicket: --worktree: the WorktreeCreate hook could not make the worktree: WorktreeCreate hook');
    expect(failed.stderr).toContain('disk full');
    await hooks('echo relative/dir\n');
    const relative = await t.run(['-p', 'x', '-w', 'nope']);
    expect(relative.code).toBe(1);
    expect(relative.stderr).toContain('gave "relative/dir", which is not an absolute path');
    await hooks('echo /no/such/folder\n');
    expect((await t.run(['-p', 'x', '-w', 'nope'])).stderr).toContain('gave "/no/such/folder", which is not a folder');
    expect(t.api.messageRequests()).toHaveLength(0);
  });

  it('without the hooks, a folder outside git still cannot have a worktree', async () => {
    const r = await t.run(['-p', 'x', '-w', 'plain']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('a worktree needs a git repository, and this folder is not in one, or WorktreeCreate hooks that make one');
  });
});

describe('Agent isolation: worktree with the hooks', () => {
  it('the sub-agent works in the folder the hook made; unchanged, the WorktreeRemove hook gets it back', async () => {
    await hooks();
    let workdir = '';
    t.api.script(
      reply().toolUse('Agent', { description: 'isolated look', prompt: 'look', isolation: 'worktree' }, { id: 'toolu_agent' }),
      reply((req) => {
        workdir = workdirOf(req);
        return reply().text('Looked; nothing to change.');
      }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'try it in a worktree', '--output-format', 'json']), 0);
    expect(workdir).toMatch(new RegExp(`^${home('agent-')}[0-9a-f]+$`));
    expect(logOf('create.log')[0]!.name).toBe(path.basename(workdir));
    expect(logOf('remove.log')).toEqual([expect.objectContaining({ worktree_path: workdir })]);
    const result = JSON.stringify(toolResultIn(t.api.messageRequests()[2]!.body, 'toolu_agent').content);
    expect(result).toContain('Looked; nothing to change.');
    expect(result).toContain('the WorktreeRemove hooks removed the worktree');
  });

  it('a failing WorktreeCreate hook fails the Agent call with its reason', async () => {
    await hooks('echo "quota exceeded" >&2; exit 3\n');
    t.api.script(reply().toolUse('Agent', { description: 'x', prompt: 'y', isolation: 'worktree' }, { id: 'toolu_agent' }), reply().text('ok'));
    expectExit(await t.run(['-p', 'go']), 0);
    const result = toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_agent');
    expect(JSON.stringify(result.content)).toContain('quota exceeded');
    expect(result.is_error).toBe(true);
  });
});

describe('in a git repository', () => {
  const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: t.project.dir, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } }).trim();

  it('a WorktreeCreate hook replaces git worktree add; a WorktreeRemove hook alone replaces the removal of a git-made one', async () => {
    git('init', '-q');
    await hooks();
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'x', '-w', 'hooked'], { env: GIT_ENV }), 0);
    expect(logOf('create.log')).toHaveLength(1);
    expect(git('worktree', 'list').split('\n')).toHaveLength(1);
    // Only WorktreeRemove: git makes the worktree, the hook removes it.
    await t.project.write(
      '.claude/settings.json',
      JSON.stringify({ hooks: { WorktreeRemove: [{ hooks: [{ type: 'command', command: `bash "$CLAUDE_PROJECT_DIR/remove.sh"` }] }] } }),
    );
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', 'x', '-w', 'gitmade'], { env: GIT_ENV });
    expectExit(r, 0);
    expect(logOf('remove.log').map((e) => e.worktree_path)).toEqual([home('hooked'), path.join(t.project.dir, '.claude', 'worktrees', 'gitmade')]);
    expect(r.stderr).toContain('the WorktreeRemove hooks removed the worktree');
    expect(existsSync(path.join(t.project.dir, '.claude', 'worktrees', 'gitmade'))).toBe(false);
  });
});
