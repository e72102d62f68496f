/**
 * Plugins in the app, in a real terminal (tmux): an enabled plugin that is not installed is a note
 * at the top, /plugin list says what loaded and what did not, and a plugin command runs as typed; the
 * plugins a project's settings name are offered at start; the /plugin screen installs, updates and
 * turns off plugins, and /reload-plugins brings them into the running session.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { gitRepo } from '../support/git-repos.js';
import { expectExit, REPO_ROOT, runCli } from '../support/run-cli.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();

const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('plugins in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('notes a plugin that is enabled but missing, lists the plugins with /plugin list, and runs a plugin command', async () => {
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
    tui.type('/plugin list');
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

describe.skipIf(!TMUX)('the /plugin screen and /reload-plugins', { timeout: 120_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('installs, updates and turns off a plugin; /reload-plugins brings its commands, skills, agents, hooks and MCP servers in without a restart', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const market = path.join(project.home, 'market');
    const put = (rel: string, content: string | object) => {
      mkdirSync(path.dirname(path.join(market, rel)), { recursive: true });
      writeFileSync(path.join(market, rel), typeof content === 'string' ? content : JSON.stringify(content));
    };
    put('.claude-plugin/marketplace.json', { name: 'team', owner: { name: 'Team' }, plugins: [{ name: 'kit', source: './kit', description: 'The team kit' }] });
    put('kit/.claude-plugin/plugin.json', { name: 'kit', version: '1.0.0' });
    put('kit/commands/hello.md', 'Say hello to $ARGUMENTS');
    put('kit/skills/tidy/SKILL.md', '---\ndescription: Tidy the imports\n---\nTidy them.');
    put('kit/agents/helper.md', '---\nname: helper\ndescription: Helps with the kit\n---\nHelp.');
    put('kit/hooks/hooks.json', { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo kit hook was here' }] }] } });
    put('kit/.mcp.json', { mcpServers: { srv: { command: process.execPath, args: [path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs')] } } });
    expectExit(await runCli(['plugin', 'marketplace', 'add', market], { cwd: project.dir, home: project.home }), 0);
    api.script(reply().text('Hello one.'), reply().text('Hello two.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, rows: 36 });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);

    tui.type('/plugin');
    tui.press('Enter');
    await tui.waitFor('Installed (0)');
    tui.press('Right');
    await tui.waitFor('kit@team · The team kit');
    tui.press('Enter');
    await tui.waitFor('Installed kit@team 1.0.0 (user scope).');
    tui.press('Escape');
    await tui.waitFor('Plugins changed: /reload-plugins brings the changes into this session.');
    tui.type('/reload-plugins');
    tui.press('Enter');
    await tui.waitFor('Reloaded: 1 plugin · 1 command · 1 skill · 1 agent · 1 hook · 1 plugin MCP server');
    tui.type('/kit:hello world');
    tui.press('Enter');
    await tui.waitFor('Hello one.');
    const first = api.messageRequests()[0]!.body as { messages: unknown[]; tools: Array<{ name: string; description?: string }> };
    expect(JSON.stringify(first.messages)).toContain('Say hello to world');
    expect(JSON.stringify(first.messages)).toContain('kit hook was here');
    const tools = first.tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['mcp__plugin_kit_srv__echo', 'Skill']));
    expect(first.tools.find((t) => t.name === 'Agent')!.description).toContain('kit:helper');

    put('kit/.claude-plugin/plugin.json', { name: 'kit', version: '1.1.0' });
    put('kit/commands/bye.md', 'Say goodbye to $ARGUMENTS');
    tui.type('/plugin');
    tui.press('Enter');
    await tui.waitFor('✓ kit@team 1.0.0  user  enabled');
    tui.type('u');
    await tui.waitFor('Updated kit@team from 1.0.0 to 1.1.0.');
    tui.type(' ');
    await tui.waitFor('kit@team is disabled (user settings).');
    tui.press('Escape');
    // An Escape read with the next keys in one chunk would be taken for Alt+/: type once the screen is closed.
    await tui.waitFor(/^(?![\s\S]*Marketplaces \(1\))[\s\S]*$/);
    tui.type('/reload-plugins');
    tui.press('Enter');
    await tui.waitFor('Reloaded: 0 plugins');
    tui.type('/kit:bye');
    tui.press('Enter');
    await tui.waitFor('Unknown command /kit:bye');
    tui.type('/plugin enable kit@team');
    tui.press('Enter');
    await tui.waitFor('kit@team is enabled (user settings)');
    tui.type('/reload-plugins');
    tui.press('Enter');
    await tui.waitFor('Reloaded: 1 plugin · 2 commands');
    tui.type('/kit:bye now');
    tui.press('Enter');
    await tui.waitFor('Hello two.');
    expect(JSON.stringify(api.messageRequests()[1]!.body.messages)).toContain('Say goodbye to now');
    expect((api.messageRequests()[1]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('mcp__plugin_kit_srv__echo');
  });
});
