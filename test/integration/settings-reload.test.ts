/** Settings files changed while a session runs: read again (ConfigChange hooks may refuse), through the built binary. */
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();

/** The second tool call is asked for only after the test changed the settings, while the first one runs. */
async function runWhileChanging(settingsBefore: object, settingsAfter: object) {
  await t.project.write('.claude/settings.json', JSON.stringify(settingsBefore));
  t.api.script(
    reply().toolUse('Bash', { command: 'sleep 3' }, { id: 'toolu_wait' }),
    reply().toolUse('Bash', { command: 'touch made.txt' }, { id: 'toolu_touch' }),
    reply().text('done'),
  );
  const run = t.run(['-p', 'go', '--allowedTools', 'Bash(sleep:*)', '--output-format', 'json']);
  let ended = false;
  void run.finally(() => (ended = true));
  // Print mode's watch begins half a second after the session is set up, later on a loaded machine: the file is
  // written again and again while `sleep 3` runs (the run is under way and its second request not yet sent), so a
  // write lands once the watch has begun, however slow the start.
  while (t.api.messageRequests().length === 0 && !ended) await new Promise((r) => setTimeout(r, 20));
  while (t.api.messageRequests().length < 2 && !ended) {
    await t.project.write('.claude/settings.json', JSON.stringify(settingsAfter));
    await new Promise((r) => setTimeout(r, 300));
  }
  return run;
}

describe('settings reloaded during a run', () => {
  it('an allow rule added to .claude/settings.json applies to the next call; stderr says the file was read again', async () => {
    const r = await runWhileChanging({ permissions: { allow: [] } }, { permissions: { allow: ['Bash(touch:*)'] } });
    expectExit(r, 0);
    expect(r.stderr).toContain(`Settings reloaded: ${t.project.path('.claude/settings.json')} changed.`);
    expect(r.json<any>().permission_denials).toEqual([]);
    expect(t.project.exists('made.txt')).toBe(true);
  });

  it('a ConfigChange hook of the settings as they were can refuse the change', async () => {
    const guard = {
      hooks: { ConfigChange: [{ matcher: 'project_settings', hooks: [{ type: 'command', command: 'echo "settings are frozen during runs" >&2; exit 2' }] }] },
    };
    const r = await runWhileChanging(guard, { permissions: { allow: ['Bash(touch:*)'] } });
    expectExit(r, 0);
    expect(r.stderr).toContain('a ConfigChange hook kept the settings as they were: settings are frozen during runs');
    expect(r.json<any>().permission_denials.map((d: any) => d.tool_use_id)).toEqual(['toolu_touch']);
    expect(t.project.exists('made.txt')).toBe(false);
  });
});
