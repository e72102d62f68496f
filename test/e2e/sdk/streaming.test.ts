// Streaming input over several turns, with setPermissionMode between them, user messages replayed
// with their uuid, and --permission-prompt-tool stdio taken without exiting (a call that would ask
// is refused, fail-closed).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useApiAndProject, toolResultIn } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { collect, PromptFeed, sdkQuery, sdkRun } from '../../support/sdk-harness.js';

const t = useApiAndProject();

describe('streaming input', () => {
  it('several turns, each with its init and result; setPermissionMode decides the next turn’s calls; replays keep their uuid', async () => {
    const a = t.project.path('a.txt');
    const b = t.project.path('b.txt');
    t.api.script(
      reply().text('one'),
      reply().toolUse('Write', { file_path: a, content: 'A\n' }, { id: 'toolu_a' }),
      reply().text('written'),
      reply().toolUse('Write', { file_path: b, content: 'B\n' }, { id: 'toolu_b' }),
      reply().text('refused'),
    );
    const feed = new PromptFeed();
    const { q, stderr } = sdkQuery(t, feed, { extraArgs: { 'replay-user-messages': null } });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const modes: unknown[] = [];
    let results = 0;
    feed.push('first question', ids[0]);
    const run = await collect(q, stderr, async (m) => {
      if (m.type !== 'result') return;
      results++;
      if (results === 1) {
        modes.push(await q.setPermissionMode('acceptEdits'));
        feed.push('write a', ids[1]);
      } else if (results === 2) {
        modes.push(await q.setPermissionMode('bypassPermissions').catch((e: Error) => e.message));
        modes.push(await q.setPermissionMode('default'));
        feed.push('write b', ids[2]);
      } else feed.end();
    });
    expect(run.error).toBeUndefined();
    expect(modes).toEqual([
      { mode: 'acceptEdits' },
      'Cannot set permission mode to bypassPermissions because the session was not launched with --dangerously-skip-permissions',
      { mode: 'default' },
    ]);
    const inits = run.messages.filter((m: any) => m.type === 'system' && m.subtype === 'init') as any[];
    expect(inits.map((i) => i.permissionMode)).toEqual(['default', 'acceptEdits', 'default']);
    expect(new Set(inits.map((i) => i.session_id)).size).toBe(1);
    const statuses = run.messages.filter((m: any) => m.type === 'system' && m.subtype === 'status').map((m: any) => m.permissionMode);
    expect(statuses).toEqual(['acceptEdits', 'default']);
    const replays = run.messages.filter((m: any) => m.type === 'user' && m.isReplay) as any[];
    expect(replays.map((r) => r.uuid)).toEqual(ids);
    expect(run.messages.filter((m) => m.type === 'result').map((m: any) => m.result)).toEqual(['one', 'written', 'refused']);
    // Results are numbered; the cost and modelUsage run on across the turns, usage is the turn's own.
    const lines = run.messages.filter((m) => m.type === 'result') as any[];
    expect(lines.map((r) => r.result_index)).toEqual([0, 1, 2]);
    expect(lines[1].total_cost_usd).toBeGreaterThan(lines[0].total_cost_usd);
    const model = Object.keys(lines[0].modelUsage)[0]!;
    expect(lines[1].modelUsage[model].inputTokens).toBe(lines[0].modelUsage[model].inputTokens + lines[1].model_usage_since_last_result[model].inputTokens);
    // The SDK always passes --verbose: gate traces only come when asked for.
    expect(run.kinds).not.toContain('system/gate_trace');
    expect(await t.project.read('a.txt')).toBe('A\n');
    expect(t.project.exists('b.txt')).toBe(false);
    const bodies = t.api.messageRequests().map((r) => r.body);
    // The second turn's request holds the first turn.
    expect(JSON.stringify(bodies[1]!.messages)).toContain('first question');
    expect(JSON.stringify(bodies[1]!.messages)).toContain('one');
    expect(JSON.stringify(toolResultIn(bodies[4], 'toolu_b'))).toMatch(/needs permission/);
  });

  it('--permission-prompt-tool stdio (canUseTool): a call that would ask is put to the program, whose answer decides', async () => {
    t.api.script(reply().toolUse('Bash', { command: 'touch made.txt' }, { id: 'toolu_bash' }), reply().text('made'));
    const asked: string[] = [];
    const run = await sdkRun(t, 'make a file', {
      extraArgs: { 'include-gate-traces': null },
      canUseTool: async (name, input) => {
        asked.push(name);
        return { behavior: 'allow', updatedInput: input };
      },
    });
    expect(run.error).toBeUndefined();
    expect(asked).toEqual(['Bash']);
    expect(run.result).toMatchObject({ subtype: 'success', result: 'made', permission_denials: [] });
    expect(t.project.exists('made.txt')).toBe(true);
    const trace = run.messages.find((m: any) => m.type === 'system' && m.subtype === 'gate_trace') as any;
    expect(trace.trace.find((g: any) => g.gate === 'permission')).toMatchObject({
      verdict: 'allowed',
      detail: expect.stringContaining('the SDK host (canUseTool)'),
    });
  });

  it('PreToolUse hook callbacks are asked; an empty answer lets the call go on', async () => {
    t.api.script(reply().toolUse('Bash', { command: 'touch hooked.txt' }, { id: 'toolu_hooked' }), reply().text('made'));
    const called: string[] = [];
    const run = await sdkRun(t, 'make a file', {
      allowedTools: ['Bash'],
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [async () => (called.push('PreToolUse'), {})] }] },
    });
    expect(run.error).toBeUndefined();
    expect(called).toEqual(['PreToolUse']);
    expect(t.project.exists('hooked.txt')).toBe(true);
  });
});
