/** A sub-agent's own hooks: the session's gate with its groups added for its run, unless the settings turn hooks off. */
import { describe, expect, it } from 'vitest';
import { parseHooksConfig } from '../../../src/settings/hooks.js';
import { createHooks } from '../../../src/hooks/create.js';
import { bash, buildHooks, one, signal, tempDir } from './helpers.js';

const agentGroups = (value: unknown) => parseHooksConfig(value, 'projectSettings', '/p/.claude/agents/a.md', 'a.md').groups.map((g) => ({ ...g, agent: 'a' }));

describe('withGroups', () => {
  it('adds the agent’s groups to the session’s for the scoped gate only; its verdicts merge with the session’s', async () => {
    const { hooks } = buildHooks(one('PreToolUse', 'echo "session says no" >&2; exit 2', {}, 'Write'));
    const scoped = hooks.withGroups(agentGroups(one('PreToolUse', 'echo "agent says no" >&2; exit 2', {}, 'Bash')))!;
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    const out = await scoped.preToolUse(bash('ls'), signal);
    expect(out).toMatchObject({ kind: 'continue', decision: 'deny', reason: 'agent says no' });
    if (out.kind === 'continue') expect(out.hookName).toContain('[agent a]');
    const write = { toolName: 'Write', toolInput: { file_path: '/x', content: '' }, toolUseId: 't' };
    expect(await scoped.preToolUse(write, signal)).toMatchObject({ decision: 'deny', reason: 'session says no' });
  });

  it('gives none when the settings turn hooks off', () => {
    const root = tempDir();
    const ctx = { sessionId: 's', cwd: root, projectRoot: root, transcriptPath: '', getPermissionMode: () => 'default', env: {} };
    expect(createHooks({ hooks: [], env: {}, hookPolicy: 'disableAllHooks' }, ctx).withGroups(agentGroups(one('Stop', 'true')))).toBeUndefined();
    expect(createHooks({ hooks: [], env: {} }, ctx).withGroups(agentGroups(one('Stop', 'true')))).toBeDefined();
  });
});
