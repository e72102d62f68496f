/** Hooks that hang, crash, print garbage, are missing or not executable: reported, never blocking. */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, buildHooks, fixture, one, signal, tempDir } from './helpers.js';

describe('hooks that misbehave', () => {
  it('a hook that hangs is killed at its timeout, with everything it started', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('slow.sh'), { timeout: 1 }));
    const started = Date.now();
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(hooks.drainNotices()).toEqual([expect.stringMatching(/slow\.sh" \[projectSettings\] timed out after 1 s and was stopped/)]);
  });

  it('garbage that looks like JSON is a notice, not a decision', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('garbage.sh')));
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([expect.stringContaining('starts with "{" but is not a valid JSON object')]);
  });

  it('plain text on stdout of a tool hook is ignored', async () => {
    const { hooks } = buildHooks(one('PreToolUse', 'echo "checked, all fine"'));
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([]);
  });

  it('a non-zero exit other than 2 is a non-blocking error with the first stderr line', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('fail.sh')));
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([expect.stringMatching(/failed with non-blocking status code 1: lint config missing: \.eslintrc not found$/)]);
  });

  it('a missing script is reported (status 127)', async () => {
    const { hooks } = buildHooks(one('PreToolUse', '"$CLAUDE_PROJECT_DIR"/.claude/hooks/does-not-exist.sh'));
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([expect.stringMatching(/status code 127: .*No such file or directory/)]);
  });

  it('a script without the executable bit is reported (status 126)', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('not-executable.sh')));
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([expect.stringMatching(/status code 126: .*Permission denied/)]);
  });

  it('an exec-form command that cannot start is reported', async () => {
    const { hooks } = buildHooks(one('PreToolUse', '/no/such/binary', { args: ['x'] }));
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([expect.stringContaining('could not be run')]);
  });

  it('exec form runs without a shell and substitutes ${CLAUDE_PROJECT_DIR}', async () => {
    const recordDir = tempDir('wicket-rec-');
    const { hooks } = buildHooks(one('PreToolUse', 'bash', { args: [fixture('record.sh'), '${CLAUDE_PROJECT_DIR}'] }), {
      settingsEnv: { HOOK_RECORD_DIR: recordDir },
    });
    await hooks.preToolUse(bash('ls'), signal);
    expect(readdirSync(recordDir)).toHaveLength(1);
  });

  it('an abort stops running hooks at once and reports nothing', async () => {
    const { hooks } = buildHooks(one('PreToolUse', fixture('slow.sh')));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const started = Date.now();
    expect(await hooks.preToolUse(bash('ls'), ac.signal)).toEqual({ kind: 'continue' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(hooks.drainNotices()).toEqual([]);
  });

  it('async hooks run in the background and decide nothing', async () => {
    // The hook cannot finish before the test creates `go`: the call answered without waiting for it, however slow the machine.
    const recordDir = tempDir('wicket-rec-');
    const go = path.join(tempDir('wicket-go-'), 'go');
    const command = `until [ -e ${go} ]; do sleep 0.05; done; echo blocked >&2; ${fixture('record.sh')}; exit 2`;
    const { hooks } = buildHooks(one('PreToolUse', command, { async: true }), { settingsEnv: { HOOK_RECORD_DIR: recordDir } });
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(readdirSync(recordDir)).toHaveLength(0);
    writeFileSync(go, '');
    for (let i = 0; i < 200 && readdirSync(recordDir).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(recordDir)).toHaveLength(1);
  });

  it('once: the hook runs a single time per session', async () => {
    const recordDir = tempDir('wicket-rec-');
    const { hooks } = buildHooks(one('PreToolUse', fixture('record.sh'), { once: true }), { settingsEnv: { HOOK_RECORD_DIR: recordDir } });
    await hooks.preToolUse(bash('a'), signal);
    await hooks.preToolUse(bash('b'), signal);
    expect(readdirSync(recordDir)).toHaveLength(1);
  });
});
