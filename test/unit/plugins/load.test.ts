/** The plugin loader: --plugin-dir folders and enabledPlugins through Claude Code's records on disk. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPlugins, pluginProblems, wantsPlugins, type PluginSources } from '../../../src/plugins/load.js';
import { NO_PLUGINS } from '../../../src/plugins/types.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-plugins-')));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(rel: string, content: string | object): string {
  const file = path.join(base, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}
const at = (rel: string) => path.join(base, rel);
const pluginsDir = () => at('config/plugins');
const load = (src: Partial<PluginSources>) => loadPlugins({ cwd: at('project'), pluginsDir: pluginsDir(), dirs: [], env: {}, ...src });

describe('--plugin-dir', () => {
  it('loads the standard layout; without a manifest the name is the folder’s', () => {
    write('p/hello/commands/hi.md', 'Hi');
    write('p/hello/agents/rev.md', '---\nname: rev\ndescription: d\n---\nx');
    write('p/hello/skills/s/SKILL.md', 'skill');
    write('p/hello/output-styles/terse.md', 'Be terse');
    write('p/hello/hooks/hooks.json', { hooks: {} });
    write('p/hello/.mcp.json', { mcpServers: {} });
    const set = load({ dirs: [at('p/hello')] });
    expect(set.errors).toEqual([]);
    expect(set.plugins).toEqual([
      {
        name: 'hello',
        root: at('p/hello'),
        source: 'plugin-dir',
        paths: {
          commands: [at('p/hello/commands')],
          agents: [at('p/hello/agents')],
          skills: [at('p/hello/skills')],
          outputStyles: [at('p/hello/output-styles')],
          hooks: [{ file: at('p/hello/hooks/hooks.json') }],
          mcpServers: [{ file: at('p/hello/.mcp.json') }],
        },
      },
    ]);
  });

  it('a relative folder is taken from the working directory; a missing one is an error, the others load', () => {
    write('project/plugs/a/commands/x.md', 'x');
    const set = load({ dirs: ['plugs/a', 'plugs/none'] });
    expect(set.plugins.map((p) => p.name)).toEqual(['a']);
    expect(set.errors).toEqual([
      { plugin: 'plugs/none', type: 'path-not-found', message: '--plugin-dir plugs/none: no such folder', path: at('project/plugs/none') },
    ]);
  });

  it('the manifest names the plugin; its paths replace the default commands, agents and styles folders and add to skills', () => {
    write('p/x/.claude-plugin/plugin.json', {
      name: 'tools',
      version: '1.2.0',
      description: 'Team tools',
      commands: ['./cmds/one.md', './more'],
      agents: './my-agents',
      skills: './extra-skills',
      outputStyles: './styles/a.md',
    });
    for (const f of [
      'commands/old.md',
      'cmds/one.md',
      'more/two.md',
      'my-agents/a.md',
      'agents/old.md',
      'skills/s/SKILL.md',
      'extra-skills/t/SKILL.md',
      'styles/a.md',
      'output-styles/old.md',
    ])
      write(`p/x/${f}`, 'x');
    const [p] = load({ dirs: [at('p/x')] }).plugins;
    expect(p).toMatchObject({ name: 'tools', version: '1.2.0', description: 'Team tools' });
    expect(p!.paths).toMatchObject({
      commands: [at('p/x/cmds/one.md'), at('p/x/more')],
      agents: [at('p/x/my-agents')],
      skills: [at('p/x/skills'), at('p/x/extra-skills')],
      outputStyles: [at('p/x/styles/a.md')],
    });
  });

  it('hooks and MCP servers from the manifest load besides the default files, inline or as files, each file once', () => {
    write('p/x/hooks/hooks.json', { hooks: {} });
    write('p/x/.mcp.json', {});
    write('p/x/extra-hooks.json', { hooks: {} });
    write('p/x/.claude-plugin/plugin.json', {
      hooks: ['./hooks/hooks.json', './extra-hooks.json', { PreToolUse: [] }],
      mcpServers: { srv: { command: 'node' } },
    });
    const [p] = load({ dirs: [at('p/x')] }).plugins;
    expect(p!.paths.hooks).toEqual([
      { file: at('p/x/hooks/hooks.json') },
      { file: at('p/x/extra-hooks.json') },
      { inline: { PreToolUse: [] }, where: 'plugin.json "hooks"[2]' },
    ]);
    expect(p!.paths.mcpServers).toEqual([{ file: at('p/x/.mcp.json') }, { inline: { srv: { command: 'node' } }, where: 'plugin.json "mcpServers"' }]);
  });

  it('a component path that is absolute, leads out of the plugin or does not exist is left out with an error', () => {
    write('p/x/commands/a.md', 'a');
    write('p/x/.claude-plugin/plugin.json', { name: 'x', commands: ['/etc', '../outside', './missing', './commands'], agents: 7 });
    const set = load({ dirs: [at('p/x')] });
    expect(set.plugins[0]!.paths.commands).toEqual([at('p/x/commands')]);
    expect(set.errors.map((e) => [e.plugin, e.type])).toEqual([
      ['x', 'manifest-validation-error'],
      ['x', 'manifest-validation-error'],
      ['x', 'path-not-found'],
      ['x', 'manifest-validation-error'],
    ]);
    expect(set.errors[0]!.message).toContain('"/etc" must be relative to the plugin folder');
    expect(set.errors[1]!.message).toContain('"../outside" leads out of the plugin folder');
    expect(set.errors[2]!.message).toContain(`${at('p/x/missing')} does not exist`);
    expect(set.errors[3]!.message).toContain('"agents" must be a path or a list of paths, found a number');
  });

  it('a manifest that is not JSON, or a name that is not a name, stops that plugin only', () => {
    write('p/bad/.claude-plugin/plugin.json', '{ "name": "bad", }');
    write('p/odd/.claude-plugin/plugin.json', { name: 'has space' });
    write('p/good/commands/a.md', 'a');
    const set = load({ dirs: [at('p/bad'), at('p/odd'), at('p/good')] });
    expect(set.plugins.map((p) => p.name)).toEqual(['good']);
    expect(set.errors.map((e) => [e.plugin, e.type])).toEqual([
      ['bad', 'manifest-parse-error'],
      ['odd', 'manifest-validation-error'],
    ]);
    expect(set.errors[0]!.message).toMatch(/plugin\.json: invalid JSON at line 1, column \d+: .*; the plugin is not loaded$/);
    expect(pluginProblems(set)[0]).toMatch(/^plugin bad: .*plugin\.json: invalid JSON/);
  });

  it('two plugins of the same name: the first stays, the second is an error', () => {
    write('p/a/.claude-plugin/plugin.json', { name: 'same' });
    write('p/b/.claude-plugin/plugin.json', { name: 'same' });
    const set = load({ dirs: [at('p/a'), at('p/b')] });
    expect(set.plugins.map((p) => p.root)).toEqual([at('p/a')]);
    expect(set.errors[0]!.message).toContain('already has that name');
  });
});

describe('enabledPlugins', () => {
  const records = (plugins: object, version = 2) => write('config/plugins/installed_plugins.json', { version, plugins });

  it('nothing configured, or every plugin turned off: nothing is loaded or read', () => {
    expect(wantsPlugins({ dirs: [], enabled: undefined })).toBe(false);
    expect(wantsPlugins({ dirs: [], enabled: { 'a@m': false, 'b@m': 'yes' } })).toBe(false);
    expect(load({ enabled: { 'a@m': false } })).toBe(NO_PLUGINS);
    expect(load({})).toBe(NO_PLUGINS);
  });

  it('finds an installed plugin through installed_plugins.json (version 2: a list of records per plugin)', () => {
    write('cache/m/deploy/1.0.0/.claude-plugin/plugin.json', { name: 'deploy', version: '1.0.0' });
    records({ 'deploy@m': [{ scope: 'user', installPath: at('cache/m/deploy/1.0.0'), version: '1.0.0', installedAt: '2026-01-01T00:00:00Z' }] });
    const set = load({ enabled: { 'deploy@m': true, 'other@m': false } });
    expect(set.errors).toEqual([]);
    expect(set.plugins).toMatchObject([{ name: 'deploy', id: 'deploy@m', source: 'settings', root: at('cache/m/deploy/1.0.0'), version: '1.0.0' }]);
  });

  it('reads version 1 records, takes the id’s name when there is no manifest, and prefers a record for this project', () => {
    mkdirSync(at('cache/a'), { recursive: true });
    mkdirSync(at('cache/b'), { recursive: true });
    records({ 'one@m': { installPath: at('cache/a') } }, 1);
    expect(load({ enabled: { 'one@m': true } }).plugins).toMatchObject([{ name: 'one', root: at('cache/a') }]);
    records({
      'two@m': [
        { scope: 'user', installPath: at('cache/a') },
        { scope: 'project', projectPath: at('project'), installPath: at('cache/b') },
      ],
    });
    expect(load({ enabled: { 'two@m': true } }).plugins[0]!.root).toBe(at('cache/b'));
  });

  it('a name without its marketplace finds the one recorded plugin of that name', () => {
    mkdirSync(at('cache/a'), { recursive: true });
    records({ 'solo@market': [{ installPath: at('cache/a') }] });
    expect(load({ enabled: { solo: true } }).plugins).toMatchObject([{ name: 'solo', id: 'solo@market' }]);
  });

  it('an enabled plugin that is nowhere on disk is an error that says so; nothing is fetched', () => {
    const set = load({ enabled: { 'ghost@nowhere': true } });
    expect(set.plugins).toEqual([]);
    expect(set.errors).toEqual([
      {
        plugin: 'ghost@nowhere',
        type: 'plugin-not-found',
        message: `plugin "ghost@nowhere" is enabled but not installed: it is not in ${at('config/plugins/installed_plugins.json')}, and the marketplace "nowhere" is not on disk. Install it: wicket plugin install ghost@nowhere`,
      },
    ]);
    expect(pluginProblems(set)).toEqual([set.errors[0]!.message]);
  });

  it('a record whose folder is gone says where it was looked for', () => {
    records({ 'gone@m': [{ installPath: at('cache/gone') }] });
    expect(load({ enabled: { 'gone@m': true } }).errors[0]!.message).toContain(`records it at ${at('cache/gone')}, which is not there`);
  });

  it('falls back to the marketplace on disk: known_marketplaces.json installLocation and a relative plugin source', () => {
    write('mkts/team/.claude-plugin/marketplace.json', { name: 'team', owner: { name: 'T' }, plugins: [{ name: 'lint', source: './plugins/lint' }] });
    write('mkts/team/plugins/lint/commands/run.md', 'run');
    write('config/plugins/known_marketplaces.json', {
      team: { source: { source: 'github', repo: 'acme/team' }, installLocation: at('mkts/team'), lastUpdated: '2026-01-01' },
    });
    const set = load({ enabled: { 'lint@team': true } });
    expect(set.errors).toEqual([]);
    expect(set.plugins).toMatchObject([{ name: 'lint', id: 'lint@team', root: at('mkts/team/plugins/lint') }]);
  });

  it('finds a marketplace in marketplaces/<name>, or where a directory source recorded in known_marketplaces.json points, and honours metadata.pluginRoot', () => {
    write('config/plugins/marketplaces/mk/.claude-plugin/marketplace.json', {
      name: 'mk',
      plugins: [{ name: 'a', source: 'a' }],
      metadata: { pluginRoot: './plugins' },
    });
    mkdirSync(at('config/plugins/marketplaces/mk/plugins/a'), { recursive: true });
    write('shared/.claude-plugin/marketplace.json', { name: 'shared', plugins: [{ name: 'b', source: './b' }] });
    mkdirSync(at('shared/b'), { recursive: true });
    write('config/plugins/known_marketplaces.json', { shared: { source: { source: 'directory', path: at('shared') } } });
    const set = load({ enabled: { 'a@mk': true, 'b@shared': true } });
    expect(set.errors).toEqual([]);
    expect(set.plugins.map((p) => p.root)).toEqual([at('config/plugins/marketplaces/mk/plugins/a'), at('shared/b')]);
  });

  it('a marketplace entry with a remote source, or without the plugin, is an error; strict:false entries are the manifest', () => {
    write('config/plugins/marketplaces/mk/.claude-plugin/marketplace.json', {
      name: 'mk',
      plugins: [
        { name: 'remote', source: { source: 'github', repo: 'acme/remote' } },
        { name: 'loose', source: './loose', strict: false, commands: ['./cmds/go.md'] },
      ],
    });
    write('config/plugins/marketplaces/mk/loose/cmds/go.md', 'go');
    const set = load({ enabled: { 'remote@mk': true, 'absent@mk': true, 'loose@mk': true } });
    expect(set.errors.map((e) => e.plugin)).toEqual(['remote@mk', 'absent@mk']);
    expect(set.errors[0]!.message).toContain('fetches it from a github source (acme/remote), which is not installed yet');
    expect(set.errors[1]!.message).toContain('lists no plugin named absent');
    expect(set.plugins).toMatchObject([{ name: 'loose', paths: { commands: [at('config/plugins/marketplaces/mk/loose/cmds/go.md')] } }]);
  });

  it('a --plugin-dir plugin wins over the enabled plugin of the same name', () => {
    write('p/deploy/commands/a.md', 'a');
    const set = load({ dirs: [at('p/deploy')], enabled: { 'deploy@m': true } });
    expect(set.errors).toEqual([]);
    expect(set.plugins).toMatchObject([{ name: 'deploy', source: 'plugin-dir' }]);
  });
});
