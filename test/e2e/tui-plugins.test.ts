/**
 * Plugins in the app, in a real terminal (tmux): an enabled plugin that is not installed is a note
 * at the top, /plugin lists what loaded and what did not, and a plugin command runs as typed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();

const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('plugins in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('notes a plugin that is enabled but missing, lists the plugins with /plugin, and runs a plugin command', async () => {
    const project = await makeTmpProject({ files: {}, userSettings: { enabledPlugins: { 'ghost@nowhere': true } } });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const dir = path.join(project.dir, 'plugins', 'myplug');
    mkdirSync(path.join(dir, 'commands'), { recursive: true });
    writeFileSync(path.join(dir, 'commands', 'hello.md'), '---\ndescription: Greets\n---\nSay hello to $ARGUMENTS from ${CLAUDE_PLUGIN_ROOT}');
    api.script(reply().text('Hello from the plugin.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--plugin-dir', dir] });
    cleanups.push(() => tui.close());
    const start = await tui.waitFor(READY);
    expect(start).toContain('plugin "ghost@nowhere" is enabled but not installed');
    tui.type('/plugin');
    tui.press('Enter');
    const listed = await tui.waitFor('Problems');
    expect(listed).toContain('✓ myplug  (--plugin-dir:');
    expect(listed).toContain('1 command');
    tui.type('/myplug:hello world');
    tui.press('Enter');
    await tui.waitFor('Hello from the plugin.');
    expect(JSON.stringify(api.messageRequests()[0]!.body.messages)).toContain(`Say hello to world from ${dir}`);
  });
});
