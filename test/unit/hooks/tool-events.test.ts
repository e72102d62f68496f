/** PreToolUse / PostToolUse / PostToolUseFailure / PermissionRequest with real bash, Python and Node hook scripts. */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, buildHooks, fixture, FIXTURES, one, signal, tempDir } from './helpers.js';

const hasJq = (() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A project whose .claude/hooks holds the fixture scripts, referenced as users do: "$CLAUDE_PROJECT_DIR"/.claude/hooks/x. */
function projectWithHooks(): string {
  const root = tempDir();
  mkdirSync(path.join(root, '.claude'), { recursive: true });
  cpSync(FIXTURES, path.join(root, '.claude/hooks'), { recursive: true });
  return root;
}

function records(dir: string): Array<{ stdin: Record<string, any>; project_dir: string; pwd: string }> {
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
}

describe('PreToolUse', () => {
  it('exit 2 blocks: stderr is the reason (Python guard)', async () => {
    const projectRoot = projectWithHooks();
    const { hooks } = buildHooks(one('PreToolUse', 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/block-dangerous.py', {}, 'Bash'), { projectRoot });
    const out = await hooks.preToolUse(bash('rm -rf build'), signal);
    expect(out).toMatchObject({ kind: 'continue', decision: 'deny', reason: 'rm -rf is not allowed here; delete files one by one' });
    if (out.kind === 'continue') expect(out.hookName).toContain('block-dangerous.py');
    expect(await hooks.preToolUse(bash('ls -la'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([]);
  });

  it('JSON permissionDecision deny with a reason (Node guard)', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('protect-env.js'), {}, 'Read|Edit'));
    const out = await hooks.preToolUse({ toolName: 'Read', toolInput: { file_path: '/p/.env' }, toolUseId: 't' }, signal);
    expect(out).toMatchObject({ decision: 'deny', reason: expect.stringContaining('Use .env.example instead') });
    const other = await hooks.preToolUse({ toolName: 'Read', toolInput: { file_path: '/p/a.ts' }, toolUseId: 't' }, signal);
    expect(other).toEqual({ kind: 'continue' });
  });

  it('updatedInput replaces the input, with allow, and names the hook', async () => {
    const { hooks } = buildHooks(one('PreToolUse', `node ${fixture('rewrite-input.js')}`, {}, 'Bash'));
    const out = await hooks.preToolUse(bash('npm install left-pad'), signal);
    expect(out).toMatchObject({ kind: 'continue', decision: 'allow', updatedInput: { command: 'npm install left-pad --prefer-offline' } });
    if (out.kind === 'continue') expect(out.hookName).toContain('rewrite-input.js');
  });

  it('ask, with a systemMessage for the person', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('ask-user.js'), {}, 'Bash'));
    expect(await hooks.preToolUse(bash('git commit -m x'), signal)).toMatchObject({ decision: 'ask', reason: 'commits need a human' });
    expect(hooks.drainNotices()).toEqual([expect.stringContaining('A commit is about to be made.')]);
    expect(hooks.drainNotices()).toEqual([]);
  });

  it('deprecated top-level decision approve/block maps to allow/deny', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('legacy-approve.py'), {}, 'Bash'));
    expect(await hooks.preToolUse(bash('ls'), signal)).toMatchObject({ decision: 'allow', reason: 'listing is harmless' });
    expect(await hooks.preToolUse(bash('curl x'), signal)).toMatchObject({ decision: 'deny', reason: 'no network from the shell; use WebFetch' });
  });

  it('continue: false stops the run, and beats any decision', async () => {
    const { hooks } = buildHooks({
      PreToolUse: [
        {
          matcher: '*',
          hooks: [
            { type: 'command', command: fixture('stop-session.sh') },
            { type: 'command', command: `python3 ${fixture('block-dangerous.py')}` },
          ],
        },
      ],
    });
    const out = await hooks.preToolUse(bash('rm -rf config/production'), signal);
    expect(out).toEqual({
      kind: 'stop',
      reason: 'Production config touched: stopping so a human can look.',
      hookName: expect.stringContaining('stop-session.sh'),
    });
  });

  it.skipIf(!hasJq)('jq-style bash guard: exit 2 for lock files', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('jq-guard.sh'), {}, 'Edit|Write'));
    const out = await hooks.preToolUse({ toolName: 'Write', toolInput: { file_path: '/p/package-lock.json', content: '' }, toolUseId: 't' }, signal);
    expect(out).toMatchObject({ decision: 'deny', reason: expect.stringContaining('Lock files are generated') });
    expect(await hooks.preToolUse({ toolName: 'Bash', toolInput: { command: 'x' }, toolUseId: 't' }, signal)).toEqual({ kind: 'continue' });
  });

  it('several hooks: deny > ask > allow; the rewrite of an allowing hook is kept', async () => {
    const allow = `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -1"}}}'`;
    const ask = `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check"}}'`;
    const deny = `echo nope >&2; exit 2`;
    const group = (cmds: string[]) => ({ PreToolUse: [{ hooks: cmds.map((command) => ({ type: 'command', command })) }] });
    expect(await buildHooks(group([allow, ask])).hooks.preToolUse(bash('ls'), signal)).toMatchObject({
      decision: 'ask',
      reason: 'check',
      updatedInput: { command: 'ls -1' },
    });
    const denied = await buildHooks(group([allow, deny, ask])).hooks.preToolUse(bash('ls'), signal);
    expect(denied).toMatchObject({ decision: 'deny', reason: 'nope' });
    expect(denied).not.toHaveProperty('updatedInput');
  });

  it('exit 2 blocks even when stdout says allow; exit 1 still honours a JSON deny', async () => {
    const sayAllowExit2 = `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; echo blocked >&2; exit 2`;
    expect(await buildHooks(one('PreToolUse', sayAllowExit2)).hooks.preToolUse(bash('x'), signal)).toMatchObject({ decision: 'deny', reason: 'blocked' });
    const denyExit1 = `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}'; exit 1`;
    const b = buildHooks(one('PreToolUse', denyExit1));
    expect(await b.hooks.preToolUse(bash('x'), signal)).toMatchObject({ decision: 'deny', reason: 'r' });
    expect(b.hooks.drainNotices()).toEqual([expect.stringContaining('non-blocking status code 1')]);
  });

  it('sends the input JSON on stdin, sets CLAUDE_PROJECT_DIR, runs in the cwd', async () => {
    const recordDir = tempDir('wicket-rec-');
    const { hooks, projectRoot } = buildHooks(one('PreToolUse', fixture('record.sh'), {}, 'Bash'), {
      settingsEnv: { HOOK_RECORD_DIR: recordDir },
      getPermissionMode: () => 'acceptEdits',
    });
    await hooks.preToolUse(bash('npm test', 'toolu_42'), signal);
    const [rec] = records(recordDir);
    expect(rec?.stdin).toEqual({
      session_id: 'sess-1',
      transcript_path: path.join(projectRoot, 'transcript.jsonl'),
      cwd: projectRoot,
      hook_event_name: 'PreToolUse',
      permission_mode: 'acceptEdits',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_use_id: 'toolu_42',
    });
    expect(rec?.project_dir).toBe(projectRoot);
    expect(rec?.pwd).toBe(projectRoot);
  });

  it('matching hooks run in parallel; identical commands once; other tools untouched', async () => {
    const recordDir = tempDir('wicket-rec-');
    const rec = fixture('record.sh');
    // Each hook says it started, then records only if all three have started within 10 s: run one after another, none would.
    const started = tempDir('wicket-started-');
    const meet = `touch ${started}/$$; for i in $(seq 200); do [ $(ls ${started} | wc -l) -ge 3 ] && break; sleep 0.05; done; [ $(ls ${started} | wc -l) -ge 3 ]`;
    const { hooks } = buildHooks(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: `${meet} && ${rec}` },
              { type: 'command', command: `${meet} && ${rec} second` },
            ],
          },
          {
            matcher: 'Bash|Write',
            hooks: [
              { type: 'command', command: `${meet} && ${rec}` },
              { type: 'command', command: `${meet} && ${rec} third` },
            ],
          },
          { matcher: 'Read', hooks: [{ type: 'command', command: `${rec} read` }] },
        ],
      },
      { settingsEnv: { HOOK_RECORD_DIR: recordDir } },
    );
    await hooks.preToolUse(bash('ls'), signal);
    expect(readdirSync(started)).toHaveLength(3);
    expect(records(recordDir)).toHaveLength(3);
  });

  it("a hook's bash does not read ~/.bashrc, though nothing says it is nested and its stdin is a socket, which it still reads", async () => {
    const home = tempDir('wicket-home-');
    const out = tempDir('wicket-out-');
    writeFileSync(path.join(home, '.bashrc'), `touch ${out}/bashrc-read\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete env.SHLVL; // as under a service or `env -i`: bash, at level 1, takes itself for a command run by rshd
    const { hooks } = buildHooks(one('PreToolUse', `readlink /proc/$$/fd/0 > ${out}/stdin-kind; cat > ${out}/stdin.json`), { env });
    await hooks.preToolUse(bash('ls'), signal);
    expect(readFileSync(path.join(out, 'stdin-kind'), 'utf8')).toMatch(/^socket:/);
    expect(JSON.parse(readFileSync(path.join(out, 'stdin.json'), 'utf8'))).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(readdirSync(out).sort()).toEqual(['stdin-kind', 'stdin.json']);
  });

  it('`if` rules pick calls; with the tools given, commands are matched properly', async () => {
    const recordDir = tempDir('wicket-rec-');
    const { fakeBash } = await import('../permissions/world.js');
    const { hooks } = buildHooks(one('PreToolUse', fixture('record.sh'), { if: 'Bash(git *)' }, 'Bash'), {
      settingsEnv: { HOOK_RECORD_DIR: recordDir },
      tools: [fakeBash],
    });
    await hooks.preToolUse(bash('npm test'), signal);
    expect(records(recordDir)).toHaveLength(0);
    await hooks.preToolUse(bash('git status'), signal);
    expect(records(recordDir)).toHaveLength(1);
  });
});

describe('PostToolUse and PostToolUseFailure', () => {
  it('decision block and additionalContext reach the model', async () => {
    const { hooks } = buildHooks(one('PostToolUse', fixture('post-check.sh'), {}, 'Write|Edit'));
    const call = {
      toolName: 'Write',
      toolInput: { file_path: '/p/a.ts', content: '// TODO: later' },
      toolUseId: 't',
      toolResponse: { filePath: '/p/a.ts', success: true },
      durationMs: 3,
    };
    const out = await hooks.postToolUse(call, signal);
    expect(out.additionalContext).toBe(
      'PostToolUse hook feedback: The file still contains a TODO; finish it before moving on.\n\nStyle guide: no TODOs in committed code.',
    );
    expect(await hooks.postToolUse({ ...call, toolInput: { file_path: '/p/a.ts', content: 'done' }, toolResponse: {} }, signal)).toEqual({});
  });

  it('exit 2 stderr goes to the model; output is capped at 10,000 characters', async () => {
    const b = buildHooks({
      PostToolUse: [
        {
          hooks: [
            { type: 'command', command: 'echo "lint failed: 3 errors" >&2; exit 2' },
            { type: 'command', command: `python3 ${fixture('big-output.py')}` },
          ],
        },
      ],
    });
    const out = await b.hooks.postToolUse({ ...bash('x'), toolResponse: {}, durationMs: 1 }, signal);
    expect(out.additionalContext).toContain('PostToolUse hook feedback: lint failed: 3 errors');
    expect(out.additionalContext!.length).toBeLessThan(10_200);
    expect(out.additionalContext).toMatch(/hook output truncated: \d+ more characters/);
  });

  it('PostToolUse input carries tool_response and duration_ms; the failure event error and is_interrupt', async () => {
    const recordDir = tempDir('wicket-rec-');
    const settingsEnv = { HOOK_RECORD_DIR: recordDir };
    const { hooks } = buildHooks(
      {
        PostToolUse: [{ hooks: [{ type: 'command', command: fixture('record.sh') }] }],
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: fixture('record.sh') }] }],
      },
      { settingsEnv },
    );
    await hooks.postToolUse({ ...bash('ls'), toolResponse: { stdout: 'a\n', stderr: '', interrupted: false }, durationMs: 12 }, signal);
    await hooks.postToolUseFailure({ ...bash('false'), error: 'Exit code 1', isInterrupt: false, durationMs: 5 }, signal);
    const [post, failure] = records(recordDir).map((r) => r.stdin);
    expect(post).toMatchObject({ hook_event_name: 'PostToolUse', tool_response: { stdout: 'a\n' }, duration_ms: 12, tool_use_id: 'toolu_1' });
    expect(failure).toMatchObject({ hook_event_name: 'PostToolUseFailure', error: 'Exit code 1', is_interrupt: false, duration_ms: 5 });
  });

  it('continue: false after a tool stops the run', async () => {
    const { hooks } = buildHooks(one('PostToolUse', `echo '{"continue": false, "stopReason": "enough"}'`));
    expect(await hooks.postToolUse({ ...bash('x'), toolResponse: {}, durationMs: 1 }, signal)).toEqual({ stop: { reason: 'enough' } });
  });
});

describe('PermissionRequest', () => {
  it('a hook answers the prompt: allow, deny with a message, or nothing', async () => {
    const recordDir = tempDir('wicket-rec-');
    const { hooks } = buildHooks(
      {
        PermissionRequest: [
          {
            matcher: '',
            hooks: [
              { type: 'command', command: fixture('permission-request.py') },
              { type: 'command', command: fixture('record.sh') },
            ],
          },
        ],
      },
      { settingsEnv: { HOOK_RECORD_DIR: recordDir } },
    );
    const call = (command: string) => ({ ...bash(command), suggestions: ['Bash(npm test:*)'] });
    expect(await hooks.permissionRequest(call('npm test'), signal)).toEqual({ behavior: 'allow' });
    expect(await hooks.permissionRequest(call('cat /etc/shadow'), signal)).toEqual({ behavior: 'deny', message: 'nothing under /etc' });
    expect(await hooks.permissionRequest(call('make'), signal)).toBeUndefined();
    expect(records(recordDir)[0]?.stdin.permission_suggestions).toEqual([
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'localSettings' },
    ]);
  });
});
