/**
 * A PreToolUse hook's `defer` in print mode, as Claude Code has it: the run ends with the call
 * pending (stop_reason tool_deferred, deferred_tool_use), and `-p --resume <id>` runs the call
 * through every gate (its hook fires again) before the model goes on.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });

/** The hook defers Write until a file named `approved` exists, then allows it. */
function deferringHook(): void {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(
    path.join(t.project.dir, 'gate.cjs'),
    `const fs=require('fs');const d=fs.existsSync('approved')?'allow':'defer';` +
      `process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:d,permissionDecisionReason:'waiting for a person'}}));`,
  );
  writeFileSync(
    path.join(t.project.dir, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'node gate.cjs' }] }] } }),
  );
}

const json = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!);

describe('PreToolUse defer', () => {
  it('parks a lone call, and resuming the session runs it once the hook allows it', async () => {
    deferringHook();
    const target = path.join(t.project.dir, 'out.txt');
    t.api.script(reply().text('Writing it.').toolUse('Write', { file_path: target, content: 'hello\n' }, { id: 'toolu_w1' }), reply().text('Written.'));
    const first = await t.run(['-p', 'write out.txt', '--output-format', 'json']);
    expectExit(first, 0);
    const parked = json(first.stdout);
    expect(parked).toMatchObject({
      subtype: 'success',
      is_error: false,
      stop_reason: 'tool_deferred',
      terminal_reason: 'tool_deferred',
      deferred_tool_use: { id: 'toolu_w1', name: 'Write', input: { file_path: target, content: 'hello\n' } },
    });
    expect(existsSync(target)).toBe(false);
    expect(t.api.messageRequests()).toHaveLength(1);

    // Still not approved: deferred again, nothing sent to the model.
    const again = await t.run(['-p', '--resume', parked.session_id, '--output-format', 'json']);
    expectExit(again, 0);
    expect(json(again.stdout)).toMatchObject({ stop_reason: 'tool_deferred', deferred_tool_use: { id: 'toolu_w1' } });
    expect(t.api.messageRequests()).toHaveLength(1);

    writeFileSync(path.join(t.project.dir, 'approved'), '');
    const resumed = await t.run(['-p', '--resume', parked.session_id, '--output-format', 'json', '--permission-mode', 'acceptEdits']);
    expectExit(resumed, 0);
    expect(json(resumed.stdout)).toMatchObject({ subtype: 'success', result: 'Written.', session_id: parked.session_id });
    expect(readFileSync(target, 'utf8')).toBe('hello\n');
    const second = t.api.messageRequests()[1]!;
    expect(toolResultIn(second.body, 'toolu_w1')).toMatchObject({ type: 'tool_result' });
    expect(toolResultIn(second.body, 'toolu_w1').is_error).toBeUndefined();
  });

  it('a prompt given on resume follows the deferred call’s result', async () => {
    deferringHook();
    const target = path.join(t.project.dir, 'out.txt');
    t.api.script(reply().toolUse('Write', { file_path: target, content: 'x\n' }, { id: 'toolu_w2' }), reply().text('ok'));
    const first = json((await t.run(['-p', 'write it', '--output-format', 'json'])).stdout);
    writeFileSync(path.join(t.project.dir, 'approved'), '');
    expectExit(await t.run(['-p', 'and then say ok', '--resume', first.session_id, '--permission-mode', 'acceptEdits']), 0);
    const last = (t.api.messageRequests()[1]!.body as { messages: Array<{ role: string; content: any[] }> }).messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_w2' });
    expect(last.content.at(-1)).toMatchObject({ type: 'text', text: 'and then say ok' });
  });

  it('with several calls in the turn, defer is ignored with a warning and the calls go on as usual', async () => {
    deferringHook();
    const a = path.join(t.project.dir, 'one.txt');
    const b = path.join(t.project.dir, 'two.txt');
    t.api.script(reply().toolUse('Write', { file_path: a, content: '1\n' }).toolUse('Write', { file_path: b, content: '2\n' }), reply().text('both'));
    const r = await t.run(['-p', 'write both', '--output-format', 'json', '--permission-mode', 'acceptEdits']);
    expectExit(r, 0);
    expect(json(r.stdout)).toMatchObject({ subtype: 'success', result: 'both' });
    expect(json(r.stdout).deferred_tool_use).toBeUndefined();
    expect(r.stderr).toContain('ignored: it works only when the call is the only one in its turn');
    expect(existsSync(a) && existsSync(b)).toBe(true);
  });

  it('resuming when the deferred tool is gone ends with tool_deferred_unavailable and exit 1', async () => {
    deferringHook();
    t.api.script(reply().toolUse('Write', { file_path: path.join(t.project.dir, 'x.txt'), content: 'x' }, { id: 'toolu_w3' }));
    const first = json((await t.run(['-p', 'write', '--output-format', 'json'])).stdout);
    const r = await t.run(['-p', '--resume', first.session_id, '--output-format', 'json', '--disallowedTools', 'Write']);
    expect(r.code).toBe(1);
    expect(json(r.stdout)).toMatchObject({
      is_error: true,
      stop_reason: 'tool_deferred_unavailable',
      deferred_tool_use: { id: 'toolu_w3', name: 'Write' },
      errors: [expect.stringContaining('the deferred tool Write is not available')],
    });
    expect(t.api.messageRequests()).toHaveLength(1);
  });
});
