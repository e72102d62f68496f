/** UserPromptSubmit, Stop, SubagentStop, SessionStart, SessionEnd, Notification, PreCompact. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHooks, fixture, one, signal, tempDir } from './helpers.js';

function lastRecord(dir: string): Record<string, any> {
  const files = readdirSync(dir).sort();
  return JSON.parse(readFileSync(path.join(dir, files[files.length - 1]!), 'utf8')).stdin;
}

describe('UserPromptSubmit', () => {
  it('plain stdout becomes context; decision block blocks the prompt', async () => {
    const { hooks } = buildHooks(one('UserPromptSubmit', `python3 ${fixture('add-context.py')}`));
    expect(await hooks.userPromptSubmit('fix the test', signal)).toEqual({
      additionalContext: 'Project conventions: tabs, not spaces. (event=UserPromptSubmit, session=sess-1)',
    });
    expect(await hooks.userPromptSubmit('my password is hunter2', signal)).toEqual({ block: 'Prompts must not contain passwords.' });
  });

  it('exit 2 blocks with stderr; continue: false stops', async () => {
    expect(await buildHooks(one('UserPromptSubmit', 'echo "no prompts on Fridays" >&2; exit 2')).hooks.userPromptSubmit('x', signal)).toEqual({
      block: 'no prompts on Fridays',
    });
    expect(await buildHooks(one('UserPromptSubmit', `echo '{"continue": false, "stopReason": "quota used"}'`)).hooks.userPromptSubmit('x', signal)).toEqual({
      stop: 'quota used',
    });
  });

  it('matchers are ignored for events without one', async () => {
    const { hooks } = buildHooks(one('UserPromptSubmit', 'echo ctx', {}, 'Bash'));
    expect(await hooks.userPromptSubmit('x', signal)).toEqual({ additionalContext: 'ctx' });
  });

  it('gets the prompt in its input', async () => {
    const recordDir = tempDir('wicket-rec-');
    const { hooks } = buildHooks(one('UserPromptSubmit', fixture('record.sh')), { settingsEnv: { HOOK_RECORD_DIR: recordDir } });
    await hooks.userPromptSubmit('hello "world"', signal);
    expect(lastRecord(recordDir)).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'hello "world"', session_id: 'sess-1' });
  });
});

describe('Stop and SubagentStop', () => {
  it('a Stop hook sends the model back to work once; stop_hook_active lets it finish', async () => {
    const { hooks } = buildHooks(one('Stop', fixture('stop-gate.sh')));
    expect(await hooks.stop({ lastAssistantMessage: 'Done!', stopHookActive: false }, signal)).toEqual({
      block: 'Run the test suite (npm test) before finishing.',
    });
    expect(await hooks.stop({ lastAssistantMessage: 'Tests pass.', stopHookActive: true }, signal)).toEqual({});
  });

  it('decision block with a reason; continue: false wins over it', async () => {
    expect(
      await buildHooks(one('Stop', `echo '{"decision":"block","reason":"update the changelog"}'`)).hooks.stop(
        { lastAssistantMessage: '', stopHookActive: false },
        signal,
      ),
    ).toEqual({ block: 'update the changelog' });
    const both = {
      Stop: [
        {
          hooks: [
            { type: 'command', command: `echo '{"decision":"block","reason":"x"}'` },
            { type: 'command', command: `echo '{"continue":false}'` },
          ],
        },
      ],
    };
    expect(await buildHooks(both).hooks.stop({ lastAssistantMessage: '', stopHookActive: false }, signal)).toEqual({});
  });

  it('SubagentStop matches on the agent type and can keep it going', async () => {
    const recordDir = tempDir('wicket-rec-');
    const hooksValue = { SubagentStop: [{ matcher: 'Explore', hooks: [{ type: 'command', command: `${fixture('record.sh')}; ${fixture('stop-gate.sh')}` }] }] };
    const { hooks } = buildHooks(hooksValue, { settingsEnv: { HOOK_RECORD_DIR: recordDir } });
    const info = { agentId: 'a1', agentType: 'Explore', lastAssistantMessage: 'found it', stopHookActive: false };
    expect(await hooks.subagentStop(info, signal)).toEqual({ block: 'Run the test suite (npm test) before finishing.' });
    expect(lastRecord(recordDir)).toMatchObject({ hook_event_name: 'SubagentStop', agent_id: 'a1', agent_type: 'Explore', last_assistant_message: 'found it' });
    expect(await hooks.subagentStop({ ...info, agentType: 'Plan' }, signal)).toEqual({});
  });
});

describe('session events', () => {
  it('SessionStart: matcher on the source; stdout and additionalContext become context', async () => {
    const hooksValue = {
      SessionStart: [
        { matcher: 'startup', hooks: [{ type: 'command', command: `python3 ${fixture('add-context.py')}` }] },
        {
          matcher: 'compact',
          hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"re-read PLAN.md"}}'` }],
        },
      ],
    };
    const { hooks } = buildHooks(hooksValue);
    expect(await hooks.sessionStart({ source: 'startup' }, signal)).toEqual({ additionalContext: expect.stringContaining('event=SessionStart') });
    expect(await hooks.sessionStart({ source: 'compact' }, signal)).toEqual({ additionalContext: 're-read PLAN.md' });
    expect(await hooks.sessionStart({ source: 'resume' }, signal)).toEqual({});
  });

  it('SessionStart exit 2 cannot block; its stderr is shown to the person', async () => {
    const { hooks } = buildHooks(one('SessionStart', 'echo "env not loaded" >&2; exit 2'));
    expect(await hooks.sessionStart({ source: 'startup', model: 'm' }, signal)).toEqual({});
    expect(hooks.drainNotices()).toEqual([expect.stringContaining('env not loaded')]);
  });

  it('SessionEnd: gets the reason; all its hooks share a short budget', async () => {
    const recordDir = tempDir('wicket-rec-');
    const hooksValue = {
      SessionEnd: [
        {
          hooks: [
            { type: 'command', command: fixture('record.sh') },
            { type: 'command', command: fixture('slow.sh') },
          ],
        },
      ],
    };
    const { hooks } = buildHooks(hooksValue, {
      settingsEnv: { HOOK_RECORD_DIR: recordDir },
      env: { ...process.env, CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '500' },
    });
    const started = Date.now();
    await hooks.sessionEnd({ reason: 'prompt_input_exit' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(lastRecord(recordDir)).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    expect(hooks.drainNotices()).toEqual([expect.stringContaining('timed out after 0.5 s')]);
  });

  it('Notification: matcher on the notification type', async () => {
    const recordDir = tempDir('wicket-rec-');
    const { hooks } = buildHooks(one('Notification', fixture('record.sh'), {}, 'permission_prompt|idle_prompt'), {
      settingsEnv: { HOOK_RECORD_DIR: recordDir },
    });
    await hooks.notification({ message: 'wicket needs your permission to use Bash', notificationType: 'permission_prompt' }, signal);
    await hooks.notification({ message: 'x', notificationType: 'auth_success' }, signal);
    expect(readdirSync(recordDir)).toHaveLength(1);
    expect(lastRecord(recordDir)).toMatchObject({
      hook_event_name: 'Notification',
      message: 'wicket needs your permission to use Bash',
      notification_type: 'permission_prompt',
      title: 'wicket',
    });
  });

  it('PreCompact: a hook can stop an automatic compaction', async () => {
    const { hooks } = buildHooks(one('PreCompact', fixture('block-compact.sh')));
    expect(await hooks.preCompact({ trigger: 'auto' }, signal)).toEqual({ block: 'migration in progress: compact manually' });
    expect(await hooks.preCompact({ trigger: 'manual', customInstructions: 'keep the API notes' }, signal)).toEqual({});
  });
});
