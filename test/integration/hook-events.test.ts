/** --include-hook-events: stream-json reports each hook starting and finishing, in Claude Code's shape. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });

function hookSettings(): void {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, 'fail.sh'), 'echo "not today" >&2\nexit 1\n');
  writeFileSync(
    path.join(t.project.dir, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo started-up' }] }],
        PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'sh fail.sh' }] }],
      },
    }),
  );
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('--include-hook-events', () => {
  it('reports hook_started and hook_response for each hook, SessionStart before init', async () => {
    hookSettings();
    t.api.script(reply().toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') }), reply().text('done'));
    const r = await t.run(['-p', 'read a.txt', '--output-format', 'stream-json', '--verbose', '--include-hook-events', '--allowedTools', 'Read']);
    expectExit(r, 0);
    const out = lines(r.stdout);
    const hooks = out.filter((l) => l.subtype === 'hook_started' || l.subtype === 'hook_response');
    expect(hooks.map((h) => `${h.subtype} ${h.hook_name}`)).toEqual([
      'hook_started SessionStart:startup',
      'hook_response SessionStart:startup',
      'hook_started PreToolUse:Read',
      'hook_response PreToolUse:Read',
    ]);
    const [started, startDone, , readDone] = hooks;
    expect(started).toMatchObject({ type: 'system', hook_event: 'SessionStart', session_id: out.find((l) => l.subtype === 'init').session_id });
    expect(startDone).toMatchObject({ hook_id: started.hook_id, stdout: 'started-up\n', exit_code: 0, outcome: 'success' });
    expect(readDone).toMatchObject({ hook_event: 'PreToolUse', stderr: 'not today\n', exit_code: 1, outcome: 'error' });
    expect(out.findIndex((l) => l.subtype === 'hook_response')).toBeLessThan(out.findIndex((l) => l.subtype === 'init'));
    expect(new Set(hooks.map((h) => h.uuid)).size).toBe(4);
  });

  it('without the flag, or outside stream-json, no hook lines are printed', async () => {
    hookSettings();
    t.api.script(reply().text('a'), reply().text('b'));
    const plain = await t.run(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expectExit(plain, 0);
    expect(lines(plain.stdout).some((l) => String(l.subtype).startsWith('hook_'))).toBe(false);
    const text = await t.run(['-p', 'hi', '--include-hook-events']);
    expectExit(text, 0);
    expect(text.stdout.trim()).toBe('b');
  });
});
