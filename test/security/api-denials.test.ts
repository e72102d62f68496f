/**
 * Say what happened, truthfully: a call denied in print mode or dontAsk mode tells the model that
 * nobody could be asked (never that the user said no), why the call asked, and which rule would let
 * it run; the gate trace says the same; `--output-format text` ends with one stderr line that counts
 * the denials and says where to allow them (exit code unchanged); json and stream-json keep Claude
 * Code's `permission_denials`. Through the built binary against the fake Messages API.
 */
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({
  files: { 'a.txt': 'alpha\n' },
  settings: { permissions: { ask: ['Bash(git push:*)'], deny: ['Bash(rm:*)'] } },
});

/** The text of the tool_result for `id` in the last request. */
const resultText = (id: string): string => {
  const hit = toolResultIn(t.api.messageRequests().at(-1)!.body, id);
  return typeof hit.content === 'string' ? hit.content : JSON.stringify(hit.content);
};

const AFTER_PRINT = 'Do not retry the same call; choose another way, or say in your answer which permission the task needs.';
const PERSON_ONLY = 'an allow rule cannot approve it: only a person can, in a session that asks (not print mode, not dontAsk mode)';

/** Read a.txt (so an edit validates), then the calls of `second`, then a closing text. */
function script(second: ReturnType<typeof reply>): void {
  t.api.script(reply().toolUse('Read', { file_path: 'a.txt' }), second, reply().text('finished'));
}

describe('the model is told the real reason', () => {
  it('print mode, a tool’s own ask: no one to ask, the suggested rule, why it asked', async () => {
    script(reply().toolUse('Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' }, { id: 'toolu_edit' }));
    const r = await t.run(['-p', 'edit a.txt']);
    expectExit(r, 0);
    expect(resultText('toolu_edit')).toBe(
      '<tool_use_error>[permission] Permission to use Edit was denied: this call needs permission and print mode has no one to ask; ' +
        'allow it with --allowedTools "Edit(a.txt)" or by adding "Edit(a.txt)" to permissions.allow in .claude/settings.json. ' +
        `Why it asks: Edit a.txt (tool default). ${AFTER_PRINT}</tool_use_error>`,
    );
    expect(await t.project.read('a.txt')).toBe('alpha\n');
  });

  it('print mode, a Bash command: the rule suggested for it', async () => {
    script(reply().toolUse('Bash', { command: 'npm test' }, { id: 'toolu_bash' }));
    await t.run(['-p', 'test']);
    expect(resultText('toolu_bash')).toBe(
      '<tool_use_error>[permission] Permission to use Bash was denied: this call needs permission and print mode has no one to ask; ' +
        'allow it with --allowedTools "Bash(npm test:*)" or by adding "Bash(npm test:*)" to permissions.allow in .claude/settings.json. ' +
        `Why it asks: the command may change files or run programs (tool default). ${AFTER_PRINT}</tool_use_error>`,
    );
  });

  it('print mode, an ask rule: no allow rule is offered, since none would do', async () => {
    script(reply().toolUse('Bash', { command: 'git push origin main' }, { id: 'toolu_push' }));
    await t.run(['-p', 'push']);
    const text = resultText('toolu_push');
    expect(text).toContain(`this call needs permission and print mode has no one to ask; ${PERSON_ONLY}.`);
    expect(text).toContain('Why it asks: the rule Bash(git push:*) asks first');
    expect(text).not.toContain('--allowedTools');
  });

  it('print mode, a protected path: no allow rule is offered either', async () => {
    script(reply().toolUse('Write', { file_path: '.mcp.json', content: '{}' }, { id: 'toolu_mcp' }));
    await t.run(['-p', 'write', '--permission-mode', 'acceptEdits']);
    const text = resultText('toolu_mcp');
    expect(text).toContain(`print mode has no one to ask; ${PERSON_ONLY}.`);
    expect(text).toMatch(/Why it asks: .*\.mcp\.json.*writes there always need a person's approval/);
    expect(t.project.exists('.mcp.json')).toBe(false);
  });

  it('dontAsk mode: the mode is named, with the rule that would allow the call', async () => {
    script(reply().toolUse('Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' }, { id: 'toolu_edit' }));
    const r = await t.run(['-p', 'edit a.txt', '--permission-mode', 'dontAsk']);
    expectExit(r, 0);
    expect(resultText('toolu_edit')).toBe(
      '<tool_use_error>[permission] Permission to use Edit was denied: this call needs permission and dontAsk mode denies whatever would ask; ' +
        'allow it with --allowedTools "Edit(a.txt)" or by adding "Edit(a.txt)" to permissions.allow in .claude/settings.json. ' +
        'Why it asks: Edit a.txt. Do not retry the same call; choose another way or ask the user.</tool_use_error>',
    );
  });

  it('dontAsk mode, an ask rule: only a person could approve it', async () => {
    script(reply().toolUse('Bash', { command: 'git push origin main' }, { id: 'toolu_push' }));
    await t.run(['-p', 'push', '--permission-mode', 'dontAsk']);
    expect(resultText('toolu_push')).toContain(`dontAsk mode denies whatever would ask; ${PERSON_ONLY}. Why it asks: the rule Bash(git push:*) asks first.`);
  });

  it('plan mode and deny rules keep their own reasons, each ending once', async () => {
    script(reply().toolUse('Bash', { command: 'rm a.txt' }, { id: 'toolu_rm' }).toolUse('Write', { file_path: 'b.txt', content: 'x' }, { id: 'toolu_write' }));
    await t.run(['-p', 'go', '--permission-mode', 'plan']);
    expect(resultText('toolu_rm')).toContain('Permission to use Bash was denied: denied by the rule Bash(rm:*). Do not retry');
    expect(resultText('toolu_write')).toContain(
      'wait for approval before changing anything. Do not retry the same call; choose another way or ask the user.</tool_use_error>',
    );
    for (const id of ['toolu_rm', 'toolu_write']) expect(resultText(id)).not.toMatch(/\.\s*\.|said no/);
    expect(t.project.exists('a.txt')).toBe(true);
  });
});

describe('what the person and the scripts see', () => {
  it('text output: one stderr line at the end counts the denials and says where to allow them; exit code 0', async () => {
    script(
      reply()
        .toolUse('Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' })
        .toolUse('Bash', { command: 'npm test' })
        .toolUse('Bash', { command: 'git push' }),
    );
    const r = await t.run(['-p', 'go']);
    expectExit(r, 0);
    expect(r.stdout).toBe('finished\n');
    expect(r.stderr).toBe(
      'wicket: 3 tool calls were denied (Edit, Bash ×2): 2 need permission and nobody could be asked: ' +
        'allow them with --allowedTools "Edit(a.txt)" "Bash(npm test:*)" or in permissions.allow in .claude/settings.json; ' +
        "1 needs a person's approval (an ask rule, a protected path), and nobody could be asked\n",
    );
  });

  it('text output: a denial by a deny rule is counted as such', async () => {
    script(reply().toolUse('Bash', { command: 'rm a.txt' }));
    const r = await t.run(['-p', 'go']);
    expectExit(r, 0);
    expect(r.stderr).toBe('wicket: 1 tool call was denied (Bash) by a deny rule, the permission mode or a hook\n');
  });

  it('text output: nothing on stderr when nothing was denied', async () => {
    script(reply().toolUse('Read', { file_path: 'a.txt' }));
    const r = await t.run(['-p', 'go']);
    expectExit(r, 0);
    expect(r.stdout).toBe('finished\n');
    expect(r.stderr).toBe('');
  });

  it('json output: permission_denials keep Claude Code’s shape, and stderr has no line', async () => {
    script(reply().toolUse('Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' }, { id: 'toolu_edit' }));
    const r = await t.run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>().permission_denials).toEqual([
      { tool_name: 'Edit', tool_use_id: 'toolu_edit', tool_input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } },
    ]);
    expect(r.stderr).toBe('');
  });

  it('stream-json output: the gate trace says no one could be asked, the result keeps permission_denials', async () => {
    script(reply().toolUse('Bash', { command: 'npm test' }, { id: 'toolu_bash' }));
    const r = await t.run(['-p', 'go', '--output-format', 'stream-json', '--verbose', '--include-gate-traces']);
    expectExit(r, 0);
    const lines = r.lines<any>();
    const trace = lines.find((l) => l.subtype === 'gate_trace' && l.tool_use_id === 'toolu_bash');
    expect(trace.trace.at(-1)).toMatchObject({ gate: 'permission', verdict: 'denied', detail: 'tool default → no one to ask in print mode' });
    const sent = lines.find((l) => l.type === 'user' && JSON.stringify(l).includes('toolu_bash'));
    expect(JSON.stringify(sent)).toContain('print mode has no one to ask');
    expect(JSON.stringify(lines)).not.toMatch(/said no|answer: no/);
    expect(lines.at(-1).permission_denials).toEqual([{ tool_name: 'Bash', tool_use_id: 'toolu_bash', tool_input: { command: 'npm test' } }]);
    expect(r.stderr).toBe('');
  });
});
