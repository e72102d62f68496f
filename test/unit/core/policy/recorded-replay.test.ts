/**
 * The policy dry-run's parts: the decision a recorded call got (wicket's gate trace, Claude Code's
 * permissionDecision, or a result's words), the replay against today's settings and a candidate's
 * (the diff), the call a rule's words describe, and `--since`.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callFromRule } from '../../../../src/core/policy/call-from-rule.js';
import { dryEnv } from '../../../../src/core/policy/dry-env.js';
import { judgeCall } from '../../../../src/core/policy/judge.js';
import { sinceTime } from '../../../../src/core/policy/places.js';
import { callsOfEntries, decisionFromRecord, decisionFromResult, decisionFromTrace, type RecordedCall } from '../../../../src/core/policy/recorded.js';
import { replay } from '../../../../src/core/policy/replay.js';
import { makeTmpProject, type TmpProject } from '../../../support/tmp-project.js';

describe('the decision a call was recorded with', () => {
  it('reads wicket gate traces: a rule, a person, a hook, a refusal', () => {
    expect(decisionFromTrace([{ gate: 'permission', verdict: 'allowed', detail: 'allow rule Bash(npm test:*) [projectSettings]', durationMs: 0 }])).toEqual({
      recorded: 'allow',
      by: 'allow rule Bash(npm test:*) [projectSettings]',
    });
    expect(decisionFromTrace([{ gate: 'permission', verdict: 'allowed', detail: 'asked (tool default) → answer: yes', durationMs: 0 }])).toMatchObject({
      recorded: 'ask',
      approved: true,
    });
    expect(decisionFromTrace([{ gate: 'permission', verdict: 'denied', detail: 'tool default → print mode', durationMs: 0 }])).toMatchObject({
      recorded: 'ask',
      approved: false,
    });
    expect(decisionFromTrace([{ gate: 'permission', verdict: 'denied', detail: 'deny rule Bash(rm *) [userSettings]', durationMs: 0 }]).recorded).toBe('deny');
    expect(decisionFromTrace([{ gate: 'hooks', verdict: 'denied', detail: 'hook guard: no', durationMs: 0 }]).recorded).toBe('deny');
    expect(
      decisionFromTrace([
        { gate: 'find', verdict: 'passed', durationMs: 0 },
        { gate: 'parse', verdict: 'refused', durationMs: 0 },
      ]).recorded,
    ).toBe('refused');
    expect(decisionFromTrace([]).recorded).toBe('unknown');
  });

  it("reads Claude Code's permissionDecision: the person's answer is an ask", () => {
    expect(decisionFromRecord({ decision: 'accept', source: 'config', reasonType: 'rule', ruleSource: 'cliArg' })).toMatchObject({ recorded: 'allow' });
    expect(decisionFromRecord({ decision: 'accept', source: 'user' })).toMatchObject({ recorded: 'ask', approved: true });
    expect(decisionFromRecord({ decision: 'reject', source: 'user' })).toMatchObject({ recorded: 'ask', approved: false });
    expect(decisionFromRecord({ decision: 'reject', source: 'config' })).toMatchObject({ recorded: 'deny' });
    expect(decisionFromRecord(undefined)).toBeUndefined();
    expect(decisionFromRecord({ source: 'user' })).toBeUndefined();
  });

  it("reads a result's words when nothing else was kept", () => {
    expect(decisionFromResult('ok', false)).toBe('ran');
    expect(decisionFromResult('<tool_use_error>[parse] Invalid input for Read</tool_use_error>', true)).toBe('refused');
    expect(decisionFromResult("The user doesn't want to proceed with this tool use.", true)).toBe('ask');
    expect(decisionFromResult('<tool_use_error>[permission] Permission to use Bash was denied: x</tool_use_error>', true)).toBe('deny');
    expect(decisionFromResult('Permission to use Bash with command rm x has been denied.', true)).toBe('deny');
    expect(decisionFromResult('Exit code 1', true)).toBe('ran');
  });

  it('pairs each tool_use with its result and trace, keeps the first of a repeated id, and filters by time', () => {
    const use = (id: string, command: string, timestamp: string) => ({
      type: 'assistant',
      timestamp,
      message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
    });
    const result = (id: string, content: string, is_error = false) => ({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error }] },
    });
    const entries = [
      use('a', 'npm test', '2026-01-01T00:00:00Z'),
      result('a', 'ok'),
      { type: 'wicket-gate-trace', toolUseId: 'a', trace: [{ gate: 'permission', verdict: 'allowed', detail: 'mode bypassPermissions', durationMs: 0 }] },
      use('b', 'rm x', '2026-03-01T00:00:00Z'),
      result('b', "The user doesn't want to proceed with this tool use.", true),
      use('b', 'rm y', '2026-03-01T00:00:00Z'),
      use('c', 'ls', '2026-03-02T00:00:00Z'),
    ];
    const calls = callsOfEntries('s1', entries);
    expect(calls.map((c) => [c.toolUseId, (c.input as { command: string }).command, c.recorded])).toEqual([
      ['a', 'npm test', 'allow'],
      ['b', 'rm x', 'ask'],
      ['c', 'ls', 'unknown'],
    ]);
    expect(calls[1]!.approved).toBe(false);
    expect(callsOfEntries('s1', entries, { sinceMs: Date.parse('2026-02-01T00:00:00Z') }).map((c) => c.toolUseId)).toEqual(['b', 'c']);
  });
});

describe('the replay', () => {
  let project: TmpProject;
  beforeEach(async () => {
    project = await makeTmpProject({ settings: { permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(rm *)'] } } });
  });
  afterEach(() => project.cleanup());

  const env = (candidate?: string) => dryEnv({ cwd: project.dir, env: { HOME: project.home }, ...(candidate ? { candidate } : {}) });
  const call = (command: string, recorded: RecordedCall['recorded'], id = command): RecordedCall => ({
    sessionId: 's',
    toolUseId: id,
    name: 'Bash',
    input: { command },
    recorded,
  });

  it('lists the calls whose recorded decision differs from today’s, naming the rule and its line', async () => {
    const report = await replay(
      [call('npm test', 'ask'), call('rm -rf dist', 'ran'), call('make', 'ask'), call('npm test', 'allow', 'again'), call('cat x', 'refused')],
      env(),
    );
    expect(report.compared).toBe('recorded-vs-current');
    expect(report.flips.map((f) => `${(f.call.input as { command: string }).command}: ${f.before.decision} → ${f.after.decision}`)).toEqual([
      'npm test: ask → allow',
      'rm -rf dist: ran → deny',
    ]);
    expect(report.flips[1]!.after.rule).toMatchObject({
      rule: 'Bash(rm *)',
      list: 'deny',
      file: project.path('.claude/settings.json'),
      line: expect.any(Number),
    });
    expect(report.decisions).toEqual({ allow: 3, ask: 1, deny: 1, refused: 0 });
  });

  it('compares today’s settings with a candidate file put in place of the shared project file', async () => {
    await project.write('candidate.json', JSON.stringify({ permissions: { allow: ['Bash(make:*)'] } }));
    const report = await replay([call('npm test', 'allow'), call('make', 'ask'), call('rm -rf x', 'deny')], env(), env('candidate.json'));
    expect(report.compared).toBe('current-vs-candidate');
    expect(report.flips.map((f) => `${f.before.decision} → ${f.after.decision}`)).toEqual(['allow → ask', 'ask → allow', 'deny → ask']);
    expect(report.flips[1]!.after.rule?.file).toBe(path.join(project.dir, 'candidate.json'));
  });

  it('judges without running: the call would-be effect never happens, and a validation note does not change the decision', async () => {
    const v = await judgeCall(env(), { name: 'Bash', input: { command: 'npm test > made.txt' } });
    expect(v.trace.some((r) => r.gate === 'execute' && r.verdict === 'passed')).toBe(false);
    expect(project.exists('made.txt')).toBe(false);
    const edit = await judgeCall(env(), { name: 'Edit', input: { file_path: project.path('none.txt'), old_string: 'a', new_string: 'b' } });
    expect(edit.notes.length).toBeGreaterThan(0);
    expect(edit.decision).toBe('ask');
  });
});

describe('the call a rule describes, and --since', () => {
  it('makes an input from the specifier', () => {
    expect(callFromRule('Bash(npm test:*)', '/p')).toEqual({ name: 'Bash', input: { command: 'npm test' } });
    expect(callFromRule('Read(./.env)', '/p')).toEqual({ name: 'Read', input: { file_path: '/p/.env' } });
    expect(callFromRule('Read(//etc/passwd)', '/p')).toEqual({ name: 'Read', input: { file_path: '/etc/passwd' } });
    expect(callFromRule('Read(~/x)', '/p', '/h')).toEqual({ name: 'Read', input: { file_path: '/h/x' } });
    expect(callFromRule('WebFetch(domain:example.com)', '/p')).toMatchObject({ input: { url: 'https://example.com/' } });
    expect(callFromRule('Bash(x', '/p')).toHaveProperty('error');
  });

  it('reads spans and dates', () => {
    expect(sinceTime('30d', 100 * 86_400_000)).toBe(70 * 86_400_000);
    expect(sinceTime('2h', 10 * 3_600_000)).toBe(8 * 3_600_000);
    expect(sinceTime('2026-01-01')).toBe(Date.parse('2026-01-01'));
    expect(sinceTime('soon')).toBeUndefined();
  });
});
