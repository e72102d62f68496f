/** The trust dialog, in a real terminal (tmux): asked once per folder, before anything of the project's loads. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('the trust dialog', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('"Yes" saves the trust, and the project\'s allow rules then apply; the next start does not ask', async () => {
    const project = await makeTmpProject({ trusted: false, settings: { permissions: { allow: ['Bash(touch:*)'] } } });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().toolUse('Bash', { command: 'touch made.txt' }), reply().text('Made it.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    const asked = await tui.waitFor('Do you trust the files in this folder?');
    expect(asked).toContain(project.dir);
    expect(asked).toContain('1. Yes, I trust this folder');
    expect(api.requests).toHaveLength(0);
    tui.press('1');
    await tui.waitFor(READY);
    const saved = JSON.parse(readFileSync(join(project.home, '.claude.json'), 'utf8'));
    expect(saved.projects[project.dir]).toEqual({ hasTrustDialogAccepted: true });
    tui.type('make the file');
    tui.press('Enter');
    await tui.waitFor('Made it.');
    expect(existsSync(project.path('made.txt'))).toBe(true);
    tui.press('C-d');
    await tui.waitFor(/\[exited 0\]/);

    const again = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => again.close());
    const screen = await again.waitFor(READY);
    expect(screen).not.toContain('Do you trust');
  });

  it('"No, exit" ends the app with 1, starting nothing and saving nothing', async () => {
    const project = await makeTmpProject({ trusted: false, files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor('Do you trust the files in this folder?');
    tui.press('Down');
    tui.press('Enter');
    await tui.waitFor(/\[exited 1\]/);
    expect(existsSync(join(project.home, '.claude.json'))).toBe(false);
    expect(api.requests).toHaveLength(0);
  });
});
