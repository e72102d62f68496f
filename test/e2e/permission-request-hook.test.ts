// A PermissionRequest command hook in print mode: its allow's updatedPermissions apply to the run
// (the next matching call is no longer put to the hook), and its deny with interrupt ends the run
// (the model is not asked again). Asserted on the files, the hook's own log, and the requests.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';

const HOOK = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(new URL('./hook-calls.txt', import.meta.url), input.tool_input.command + '\\n');
process.stdout.write(readFileSync(new URL('./decision.json', import.meta.url), 'utf8'));
`;

const t = useApiAndProject({
  files: { 'hook.mjs': HOOK, 'victim.txt': 'keep me\n' },
});

async function withDecision(decision: Record<string, unknown>): Promise<void> {
  await t.project.write('decision.json', JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }));
  const command = `node ${t.project.path('hook.mjs')}`;
  await t.project.write(
    '.claude/settings.json',
    JSON.stringify({ hooks: { PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }),
  );
}

const hookCalls = () => readFileSync(t.project.path('hook-calls.txt'), 'utf8').trim().split('\n');

describe('PermissionRequest hook answers in print mode', () => {
  it('allow with updatedPermissions: the session rule lets the next matching call run without the hook', async () => {
    const one = t.project.path('one.txt');
    const two = t.project.path('two.txt');
    await withDecision({
      behavior: 'allow',
      updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'node -e *' }], behavior: 'allow', destination: 'session' }],
    });
    t.api.script(
      reply().toolUse('Bash', { command: `node -e "require('fs').writeFileSync('${one}', '1')"` }, { id: 'toolu_h1' }),
      reply().toolUse('Bash', { command: `node -e "require('fs').writeFileSync('${two}', '2')"` }, { id: 'toolu_h2' }),
      reply().text('done'),
    );
    const r = await t.run(['-p', 'Write both.']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(one) && existsSync(two)).toBe(true);
    expect(hookCalls()).toHaveLength(1);
    // A session destination is not written to any settings file.
    expect(existsSync(t.project.path('.claude/settings.local.json'))).toBe(false);
  });

  it('deny with interrupt: the call does not run and the run ends there', async () => {
    const victim = t.project.path('victim.txt');
    await withDecision({ behavior: 'deny', message: 'Stop here.', interrupt: true });
    t.api.script(reply().toolUse('Bash', { command: `node -e "require('fs').rmSync('${victim}')"` }, { id: 'toolu_h3' }), reply().text('should not be asked'));
    const r = await t.run(['-p', 'Delete it.']);
    expect(existsSync(victim)).toBe(true);
    expect(hookCalls()).toHaveLength(1);
    expect(t.api.messageRequests()).toHaveLength(1);
    expect(r.stdout).not.toContain('should not be asked');
  });
});
