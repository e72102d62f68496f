/**
 * Plugins in the app, in a real terminal (tmux): an enabled plugin that is not installed is a note
 * at the top, /plugin lists what loaded and what did not, and a plugin command runs as typed; the
 * plugins a project's settings name are offered at start.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { gitRepo } from '../support/git-repos.js';
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

describe.skipIf(!TMUX)("a project's declared plugins in the app", { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('offers to add the marketplace and install the plugins the settings name; "Yes" gives the session them from the start', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const team = gitRepo(path.join(project.home, 'src/team'), path.join(project.home, 'remote/team.git'))
      .write({
        '.claude-plugin/marketplace.json': { name: 'team', owner: { name: 'Team' }, plugins: [{ name: 'review', source: './review' }] },
        'review/.claude-plugin/plugin.json': { name: 'review', version: '1.0.0' },
        'review/commands/check.md': 'Check $ARGUMENTS as the team does',
      })
      .commit('one')
      .push();
    await project.write(
      '.claude/settings.json',
      JSON.stringify({ extraKnownMarketplaces: { team: { source: { source: 'git', url: team.url } } }, enabledPlugins: { 'review@team': true } }),
    );
    api.script(reply().text('Checked.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    const offer = await tui.waitFor('Plugins for this project');
    expect(offer).toContain(`marketplace team  ${team.url}`);
    expect(offer).toContain('plugin review@team  (project scope)');
    tui.press('1');
    const ready = await tui.waitFor(READY);
    expect(ready).toContain('Plugins for this project: Added the marketplace team. Installed review@team 1.0.0 (project');
    tui.type('/review:check the diff');
    tui.press('Enter');
    await tui.waitFor('Checked.');
    expect(JSON.stringify(api.messageRequests()[0]!.body.messages)).toContain('Check the diff as the team does');
  });
});
