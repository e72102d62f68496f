// canUseTool: the real SDK program answers wicket's can_use_tool requests (allow, deny, deny with
// interrupt, a rewritten input, permission updates, a callback that throws) and interrupt() while
// one waits. Asserted on what the SDK program saw, the files, and what the fake API received.
import { existsSync, readFileSync } from 'node:fs';
import type { CanUseTool, PermissionResult, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { collect, sdkQuery, sdkRun, waitUntil } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: { 'victim.txt': 'keep me\n' } });

/** A canUseTool that records its calls and answers with `answer`. */
function asker(answer: (tool: string, input: Record<string, unknown>) => PermissionResult | Promise<PermissionResult>) {
  const calls: Array<{ tool: string; input: Record<string, unknown>; options: Parameters<CanUseTool>[2] }> = [];
  const canUseTool: CanUseTool = async (tool, input, options) => {
    calls.push({ tool, input, options });
    return answer(tool, input);
  };
  return { calls, canUseTool };
}

/** The tool_result blocks the SDK program was shown, by call id. */
function shownResult(messages: SDKMessage[], id: string): { content: unknown; is_error?: boolean } | undefined {
  for (const m of messages) {
    if (m.type !== 'user' || !Array.isArray(m.message.content)) continue;
    const hit = m.message.content.find((b: any) => b.type === 'tool_result' && b.tool_use_id === id);
    if (hit) return hit as any;
  }
  return undefined;
}

const text = (block: { content: unknown } | undefined) => (typeof block?.content === 'string' ? block.content : JSON.stringify(block?.content));

describe('canUseTool', () => {
  it('allow: the call runs; the request carries the tool, input, call id, suggestions and the path', async () => {
    const made = t.project.path('made.txt');
    t.api.script(reply().toolUse('Bash', { command: `touch ${made}`, description: 'Create a file' }, { id: 'toolu_b1' }), reply().text('done'));
    const { calls, canUseTool } = asker(() => ({ behavior: 'allow', updatedInput: { command: `touch ${made}`, description: 'Create a file' } }));
    const run = await sdkRun(t, 'Make it.', { canUseTool });
    expect(run.error).toBeUndefined();
    expect(existsSync(made)).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.tool).toBe('Bash');
    expect(calls[0]!.input).toEqual({ command: `touch ${made}`, description: 'Create a file' });
    expect(calls[0]!.options).toMatchObject({ toolUseID: 'toolu_b1', suggestions: [expect.objectContaining({ type: 'addRules', behavior: 'allow' })] });
    expect(shownResult(run.messages, 'toolu_b1')?.is_error).toBeUndefined();
    expect(run.result).toMatchObject({ subtype: 'success', permission_denials: [] });
  });

  it('deny: the call does not run; the model reads the message; the result lists the denial', async () => {
    t.api.script(reply().toolUse('Bash', { command: `rm ${t.project.path('victim.txt')}` }, { id: 'toolu_b3' }), reply().text('understood'));
    const { canUseTool } = asker(() => ({ behavior: 'deny', message: 'Bash is not allowed in this test.' }));
    const run = await sdkRun(t, 'Delete it.', { canUseTool, extraArgs: { 'include-gate-traces': null } });
    expect(t.project.exists('victim.txt')).toBe(true);
    const shown = shownResult(run.messages, 'toolu_b3');
    expect(shown?.is_error).toBe(true);
    expect(text(shown)).toContain('Bash is not allowed in this test.');
    const second = t.api.messageRequests()[1]!.body;
    expect(JSON.stringify(toolResultIn(second, 'toolu_b3'))).toContain('Bash is not allowed in this test.');
    expect(run.result).toMatchObject({ subtype: 'success', permission_denials: [expect.objectContaining({ tool_name: 'Bash', tool_use_id: 'toolu_b3' })] });
    // The gate trace names the SDK host as who decided.
    const trace = run.messages.find((m: any) => m.subtype === 'gate_trace' && m.tool_use_id === 'toolu_b3') as any;
    expect(trace.trace.find((g: any) => g.gate === 'permission')).toMatchObject({
      verdict: 'denied',
      detail: expect.stringContaining('the SDK host (canUseTool)'),
    });
  });

  it('deny with interrupt: the turn ends there, the model is not asked again', async () => {
    t.api.script(reply().toolUse('Bash', { command: `rm ${t.project.path('victim.txt')}` }, { id: 'toolu_i1' }), reply().text('should not be asked'));
    const { canUseTool } = asker(() => ({ behavior: 'deny', message: 'Stop everything.', interrupt: true }));
    const run = await sdkRun(t, 'Delete it.', { canUseTool });
    expect(t.project.exists('victim.txt')).toBe(true);
    expect(run.result?.subtype).toBe('error_during_execution');
    expect(t.api.messageRequests()).toHaveLength(1);
    expect(text(shownResult(run.messages, 'toolu_i1'))).toContain('Stop everything.');
  });

  it('rewrite: updatedInput runs instead; a rewrite onto a denied command is refused by the rules', async () => {
    const asked = t.project.path('asked.txt');
    const instead = t.project.path('instead.txt');
    t.api.script(
      reply().toolUse('Bash', { command: `touch ${asked}` }, { id: 'toolu_r1' }),
      reply().toolUse('Bash', { command: `touch ${asked}` }, { id: 'toolu_r2' }),
      reply().text('done'),
    );
    let n = 0;
    const { canUseTool } = asker(() => ({
      behavior: 'allow',
      updatedInput: { command: ++n === 1 ? `touch ${instead}` : `rm ${t.project.path('victim.txt')}` },
    }));
    const run = await sdkRun(t, 'Make it.', { canUseTool, disallowedTools: ['Bash(rm:*)'] });
    expect(existsSync(instead)).toBe(true);
    expect(existsSync(asked)).toBe(false);
    expect(t.project.exists('victim.txt')).toBe(true);
    expect(shownResult(run.messages, 'toolu_r2')?.is_error).toBe(true);
    expect(text(shownResult(run.messages, 'toolu_r2'))).toContain('Bash(rm:*)');
  });

  it('updatedPermissions: a rule saved to the local settings and a mode for the session stop the asking', async () => {
    const a = t.project.path('a.txt');
    const b = t.project.path('b.txt');
    const notes = t.project.path('notes.txt');
    t.api.script(
      reply().toolUse('Bash', { command: `touch ${a}` }, { id: 'toolu_p1' }),
      reply().toolUse('Bash', { command: `touch ${b}` }, { id: 'toolu_p2' }),
      reply().toolUse('Write', { file_path: notes, content: 'N\n' }, { id: 'toolu_p3' }),
      reply().text('done'),
    );
    const { calls, canUseTool } = asker(() => ({
      behavior: 'allow',
      updatedPermissions: [
        { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }], behavior: 'allow', destination: 'localSettings' },
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      ],
    }));
    const run = await sdkRun(t, 'Make them.', { canUseTool });
    expect(run.error).toBeUndefined();
    expect(calls.map((c) => c.tool)).toEqual(['Bash']);
    expect([existsSync(a), existsSync(b), existsSync(notes)]).toEqual([true, true, true]);
    expect(JSON.parse(readFileSync(t.project.path('.claude/settings.local.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(touch:*)'] } });
  });

  it('a callback that throws is a refusal: "Tool permission request failed"', async () => {
    t.api.script(reply().toolUse('Bash', { command: `rm ${t.project.path('victim.txt')}` }, { id: 'toolu_t1' }), reply().text('ok'));
    const { canUseTool } = asker(() => {
      throw new Error('canUseTool exploded');
    });
    const run = await sdkRun(t, 'Delete it.', { canUseTool });
    expect(t.project.exists('victim.txt')).toBe(true);
    expect(text(shownResult(run.messages, 'toolu_t1'))).toContain('Tool permission request failed: Error: canUseTool exploded');
    expect(run.result?.permission_denials).toEqual([expect.objectContaining({ tool_use_id: 'toolu_t1' })]);
  });

  it('interrupt() while a permission request waits: the request is withdrawn, the call does not run', async () => {
    t.api.script(reply().toolUse('Bash', { command: `rm ${t.project.path('victim.txt')}` }, { id: 'toolu_d2' }), reply().text('not asked'));
    let withdrawn = false;
    let waiting = false;
    const canUseTool: CanUseTool = (_tool, _input, { signal }) =>
      new Promise((resolve) => {
        waiting = true;
        signal.addEventListener('abort', () => {
          withdrawn = true;
          resolve({ behavior: 'deny', message: 'aborted' });
        });
      });
    const { q, stderr } = sdkQuery(t, 'Delete it.', { canUseTool });
    const done = collect(q, stderr);
    await waitUntil(() => waiting, 15_000, 'the permission request');
    expect(await q.interrupt()).toEqual({ still_queued: [] });
    const run = await done;
    expect(withdrawn).toBe(true);
    expect(t.project.exists('victim.txt')).toBe(true);
    expect(run.result?.subtype).toBe('error_during_execution');
    expect(shownResult(run.messages, 'toolu_d2')?.is_error).toBe(true);
    expect(t.api.messageRequests()).toHaveLength(1);
  });
});
