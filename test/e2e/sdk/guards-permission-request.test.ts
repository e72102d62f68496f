// A PermissionRequest hook callback answers for the person: its allow's updatedPermissions are
// applied as canUseTool's are (the next matching call no longer asks; a settings destination is
// written), and its deny with interrupt ends the turn. Asserted on the files, what the hook saw and
// what the fake API received.
import { existsSync, readFileSync } from 'node:fs';
import type { HookCallback, HookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkRun } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: { 'victim.txt': 'keep me\n' } });

function recorder(answer: (input: HookInput) => unknown) {
  const seen: HookInput[] = [];
  const hook: HookCallback = async (input) => {
    seen.push(input);
    return answer(input) as Awaited<ReturnType<HookCallback>>;
  };
  return { seen, hook };
}

const decide = (decision: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });

describe('PermissionRequest hook callbacks', () => {
  it('allow with updatedPermissions: the rules apply at once and are written where their destination says', async () => {
    const one = t.project.path('one.txt');
    const two = t.project.path('two.txt');
    t.api.script(
      reply().toolUse('Bash', { command: `node -e "require('fs').writeFileSync('${one}', '1')"` }, { id: 'toolu_p1' }),
      reply().toolUse('Bash', { command: `node -e "require('fs').writeFileSync('${two}', '2')"` }, { id: 'toolu_p2' }),
      reply().text('done'),
    );
    const { seen, hook } = recorder(() =>
      decide({
        behavior: 'allow',
        updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'node -e *' }], behavior: 'allow', destination: 'localSettings' }],
      }),
    );
    const run = await sdkRun(t, 'Write both.', { hooks: { PermissionRequest: [{ hooks: [hook] }] } });
    expect(run.error).toBeUndefined();
    expect(existsSync(one) && existsSync(two)).toBe(true);
    // The second call matched the new rule: nobody was asked.
    expect(seen).toHaveLength(1);
    const local = JSON.parse(readFileSync(t.project.path('.claude/settings.local.json'), 'utf8'));
    expect(local.permissions.allow).toContain('Bash(node -e *)');
  });

  it('deny with interrupt: the call does not run, the turn ends, and the model is not asked again', async () => {
    const victim = t.project.path('victim.txt');
    t.api.script(reply().toolUse('Bash', { command: `node -e "require('fs').rmSync('${victim}')"` }, { id: 'toolu_p3' }), reply().text('should not be asked'));
    const { seen, hook } = recorder(() => decide({ behavior: 'deny', message: 'Stop here.', interrupt: true }));
    const run = await sdkRun(t, 'Delete it.', { hooks: { PermissionRequest: [{ hooks: [hook] }] } });
    expect(seen).toHaveLength(1);
    expect(existsSync(victim)).toBe(true);
    expect(run.result?.subtype).toBe('error_during_execution');
    expect(t.api.messageRequests()).toHaveLength(1);
    const shown = run.messages.flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : []));
    expect(JSON.stringify(shown.find((b: any) => b.tool_use_id === 'toolu_p3'))).toContain('Stop here.');
  });

  it('deny without interrupt: the model reads the message and the turn goes on', async () => {
    const victim = t.project.path('victim.txt');
    t.api.script(reply().toolUse('Bash', { command: `node -e "require('fs').rmSync('${victim}')"` }, { id: 'toolu_p4' }), reply().text('understood'));
    const { hook } = recorder(() => decide({ behavior: 'deny', message: 'Not this file.' }));
    const run = await sdkRun(t, 'Delete it.', { hooks: { PermissionRequest: [{ hooks: [hook] }] } });
    expect(existsSync(victim)).toBe(true);
    expect(run.result).toMatchObject({ subtype: 'success', result: 'understood' });
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_p4'))).toContain('Not this file.');
  });
});
