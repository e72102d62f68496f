/** --debug in the app, in a real terminal (tmux): the lines go to a file named under the banner, never onto the screen. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('--debug in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("writes requests, gate verdicts, tool results and hooks to the session's debug file; the filter leaves categories out", async () => {
    const project = await makeTmpProject({
      files: { 'a.txt': 'alpha\n' },
      settings: { hooks: { PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'true' }] }] } },
    });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().toolUse('Read', { file_path: project.path('a.txt') }), reply().text('It says alpha.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--debug', '!api'] });
    cleanups.push(() => tui.close());
    const banner = await tui.waitFor(READY);
    const dir = join(project.wicketHome, 'debug');
    const [name] = readdirSync(dir);
    expect(name).toMatch(/^[0-9a-f-]{36}\.txt$/);
    expect(banner.replace(/\s+/g, '')).toContain(`Debuglog:${join(dir, name!)}`.replace(/\s+/g, ''));
    tui.type('what does a.txt say?');
    tui.press('Enter');
    const screen = await tui.waitFor('It says alpha.');
    expect(screen).not.toContain('[DEBUG]');
    tui.press('C-d');
    await tui.waitFor(/\[exited 0\]/);
    const log = readFileSync(join(dir, name!), 'utf8');
    expect(log).toMatch(/\[DEBUG\] \[tools\] .*Read/);
    expect(log).toMatch(/\[DEBUG\] \[hooks\] PostToolUse:Read/);
    expect(log).not.toContain('[api]');
  });
});
