// The SDK program's hook callbacks: each kind wicket fires reaches it as a hook_callback with a
// command hook's input, and its answer counts as a command hook's JSON. A PreToolUse deny stops the
// command; a callback that throws or times out goes on, unless its onFailure is "block".
import { existsSync } from 'node:fs';
import type { CanUseTool, HookCallback, HookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkRun } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: { 'notes.txt': 'alpha\nbeta\ngamma\n' } });

const bypass = { permissionMode: 'bypassPermissions' as const, allowDangerouslySkipPermissions: true };

/** A hook callback that records its inputs and answers with `answer`. */
function recorder(answer: (input: HookInput) => unknown = () => ({})) {
  const seen: HookInput[] = [];
  const hook: HookCallback = async (input) => {
    seen.push(input);
    return answer(input) as Awaited<ReturnType<HookCallback>>;
  };
  return { seen, hook };
}

const requestText = (i: number) => JSON.stringify(t.api.messageRequests()[i]?.body);

describe('SDK hook callbacks', () => {
  it('PreToolUse deny: the Bash command does not run; every matching callback gets the command hook input', async () => {
    const made = t.project.path('made-by-bash.txt');
    t.api.script(reply().toolUse('Bash', { command: `touch ${made}`, description: 'Create a file' }, { id: 'toolu_c2' }), reply().text('done'));
    const denier = recorder(() => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Blocked by SDK hook.' },
    }));
    const other = recorder(() => ({ continue: true }));
    const run = await sdkRun(t, 'Hook test.', { ...bypass, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [denier.hook] }, { hooks: [other.hook] }] } });
    expect(existsSync(made)).toBe(false);
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_c2'))).toContain('Blocked by SDK hook.');
    expect(run.result?.permission_denials).toEqual([expect.objectContaining({ tool_use_id: 'toolu_c2' })]);
    expect(denier.seen).toEqual([
      expect.objectContaining({
        hook_event_name: 'PreToolUse',
        session_id: run.result!.session_id,
        cwd: t.project.dir,
        permission_mode: 'bypassPermissions',
        tool_name: 'Bash',
        tool_input: { command: `touch ${made}`, description: 'Create a file' },
        tool_use_id: 'toolu_c2',
        transcript_path: expect.stringContaining(run.result!.session_id),
      }),
    ]);
    expect(other.seen).toEqual(denier.seen);
  });

  it('PreToolUse allow skips the question; ask puts an allowed call to canUseTool', async () => {
    const allowed = t.project.path('allowed.txt');
    const written = t.project.path('written.txt');
    t.api.script(
      reply().toolUse('Bash', { command: `touch ${allowed}` }, { id: 'toolu_a1' }),
      reply().toolUse('Write', { file_path: written, content: 'x\n' }, { id: 'toolu_a2' }),
      reply().text('done'),
    );
    const asked: string[] = [];
    const canUseTool: CanUseTool = async (tool) => (asked.push(tool), { behavior: 'deny', message: 'the host says no' });
    const decide = recorder((i) => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: (i as { tool_name: string }).tool_name === 'Bash' ? 'allow' : 'ask' },
    }));
    await sdkRun(t, 'Go.', { permissionMode: 'acceptEdits', canUseTool, hooks: { PreToolUse: [{ hooks: [decide.hook] }] } });
    expect(existsSync(allowed)).toBe(true);
    expect(existsSync(written)).toBe(false);
    expect(asked).toEqual(['Write']);
  });

  it('PostToolUse sees an Edit’s structuredPatch and adds context; UserPromptSubmit adds context; Stop is told the last message', async () => {
    t.api.script(
      reply().toolUse('Read', { file_path: t.project.path('notes.txt') }, { id: 'toolu_r' }),
      reply().toolUse('Edit', { file_path: t.project.path('notes.txt'), old_string: 'beta', new_string: 'BETA' }, { id: 'toolu_e' }),
      reply().text('all done'),
    );
    const post = recorder((i) =>
      (i as { tool_name: string }).tool_name === 'Edit' ? { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'POST-HOOK-CONTEXT' } } : {},
    );
    const prompt = recorder(() => ({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'PROMPT-HOOK-CONTEXT' } }));
    const stop = recorder();
    const run = await sdkRun(t, 'Edit it.', {
      ...bypass,
      hooks: { PostToolUse: [{ matcher: 'Edit|Read', hooks: [post.hook] }], UserPromptSubmit: [{ hooks: [prompt.hook] }], Stop: [{ hooks: [stop.hook] }] },
    });
    expect(run.error).toBeUndefined();
    expect(await t.project.read('notes.txt')).toBe('alpha\nBETA\ngamma\n');
    const edit = post.seen.find((i) => (i as { tool_name: string }).tool_name === 'Edit') as any;
    expect(edit.tool_response).toMatchObject({
      filePath: t.project.path('notes.txt'),
      oldString: 'beta',
      newString: 'BETA',
      originalFile: 'alpha\nbeta\ngamma\n',
      structuredPatch: [expect.objectContaining({ oldStart: 1, newStart: 1, lines: [' alpha', '-beta', '+BETA', ' gamma'] })],
    });
    expect(prompt.seen).toEqual([expect.objectContaining({ hook_event_name: 'UserPromptSubmit', prompt: 'Edit it.' })]);
    expect(requestText(0)).toContain('PROMPT-HOOK-CONTEXT');
    expect(requestText(2)).toContain('POST-HOOK-CONTEXT');
    expect(requestText(1)).not.toContain('POST-HOOK-CONTEXT');
    expect(stop.seen).toEqual([expect.objectContaining({ hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'all done' })]);
  });

  it('a callback that throws or times out goes on; with onFailure "block" the call is blocked', async () => {
    const thrown = t.project.path('thrown.txt');
    const slow = t.project.path('slow.txt');
    const blocked = t.project.path('blocked.txt');
    t.api.script(
      reply().toolUse('Bash', { command: `touch ${thrown}` }, { id: 'toolu_f1' }),
      reply().toolUse('Bash', { command: `touch ${slow}` }, { id: 'toolu_f2' }),
      reply().toolUse('Bash', { command: `touch ${blocked}` }, { id: 'toolu_f3' }),
      reply().text('done'),
    );
    const command = (i: HookInput) => (i as { tool_input: { command: string } }).tool_input.command;
    let timedOut = false;
    const lenient: HookCallback = async (i, _id, { signal }) => {
      if (command(i).includes('thrown')) throw new Error('hook exploded');
      if (command(i).includes('slow')) {
        await new Promise((r) => signal.addEventListener('abort', r));
        timedOut = true;
      }
      return {};
    };
    const strict: HookCallback = async (i) => {
      if (command(i).includes('blocked')) throw new Error('strict hook exploded');
      return {};
    };
    const run = await sdkRun(t, 'Go.', {
      ...bypass,
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [lenient], timeout: 1 },
          { matcher: 'Bash', hooks: [strict], onFailure: 'block' },
        ],
      },
    });
    expect([existsSync(thrown), existsSync(slow), existsSync(blocked)]).toEqual([true, true, false]);
    expect(timedOut).toBe(true);
    // The failure is reported to the program, as Claude Code reports it.
    const warnings = run.messages.filter((m: any) => m.type === 'system' && m.subtype === 'informational').map((m: any) => m.content);
    expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining('hook exploded'), expect.stringContaining('timed out after 1 s')]));
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[3]!.body, 'toolu_f3'))).toContain('strict hook exploded');
  });
});
