/** The app reads a settings file again when it changes, in a real terminal (tmux). */
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('settings reloaded in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('an allow rule saved while the app runs is used by the next call, with a line saying so', async () => {
    const project = await makeTmpProject({ settings: { permissions: { allow: [] } } });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().toolUse('Bash', { command: 'touch made.txt' }), reply().text('Made it.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    await project.write('.claude/settings.json', JSON.stringify({ permissions: { allow: ['Bash(touch:*)'] } }));
    await tui.waitFor('Settings reloaded');
    tui.type('make the file');
    tui.press('Enter');
    const screen = await tui.waitFor('Made it.');
    expect(screen).not.toContain('Asks because');
    expect(project.exists('made.txt')).toBe(true);
  });

  it('the app\'s own write ("don\'t ask again") is read again quietly', async () => {
    const project = await makeTmpProject({ files: { 'a.txt': 'one\n' }, localSettings: { permissions: { allow: [] } } });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().toolUse('Bash', { command: 'touch one.txt' }), reply().toolUse('Bash', { command: 'touch one.txt' }), reply().text('Both made.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type('touch it twice');
    tui.press('Enter');
    await tui.waitFor("2. Yes, and don't ask again");
    tui.press('2');
    await tui.waitFor('Both made.');
    await new Promise((r) => setTimeout(r, 500));
    expect(tui.history()).not.toContain('Settings reloaded');
    expect(project.exists('one.txt')).toBe(true);
  });
});
