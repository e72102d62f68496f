/** --safe-mode in the app, in a real terminal (tmux): the banner says so, and a project's custom command is not there. */
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('--safe-mode in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('names what is off under the banner, and runs without the status line and custom commands', async () => {
    const project = await makeTmpProject({
      files: { '.claude/commands/greet.md': 'Say hello to $ARGUMENTS.\n' },
      settings: { statusLine: { type: 'command', command: 'echo STATUS-MARKER' } },
    });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().text('Plain answer.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--safe-mode'] });
    cleanups.push(() => tui.close());
    const banner = await tui.waitFor(READY);
    expect(banner.replace(/\s+/g, ' ')).toContain('Safe mode: CLAUDE.md, skills, custom commands and agents, plugins, hooks, MCP servers');
    tui.type('/greet Ada');
    tui.press('Enter');
    const refused = await tui.waitFor('Unknown command /greet');
    expect(refused).not.toContain('Say hello to Ada');
    tui.type('hello');
    tui.press('Enter');
    const screen = await tui.waitFor('Plain answer.');
    expect(screen).not.toContain('STATUS-MARKER');
    tui.press('C-d');
    await tui.waitFor(/\[exited 0\]/);
  });
});
