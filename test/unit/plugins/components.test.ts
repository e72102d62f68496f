/** What a loaded plugin gives: commands, skills, agents, hooks, MCP servers and output styles, and the session set-up that wires them. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandCustomCommand, loadCustomCommands } from '../../../src/commands/custom-commands.js';
import { loadSkills } from '../../../src/commands/skills.js';
import { loadMcpConfig } from '../../../src/mcp/config.js';
import { setActivePlugins } from '../../../src/plugins/active.js';
import { loadPlugins } from '../../../src/plugins/load.js';
import { usePlugins } from '../../../src/plugins/session.js';
import { NO_PLUGINS, type PluginSet } from '../../../src/plugins/types.js';
import { loadSettings } from '../../../src/settings/load.js';
import { loadOutputStyles } from '../../../src/settings/output-styles.js';
import { loadAgentDefinitions, setCliAgents } from '../../../src/tools/agent/definitions.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-plugin-parts-')));
  mkdirSync(path.join(base, 'project'), { recursive: true });
  mkdirSync(path.join(base, 'home/.claude'), { recursive: true });
});
afterEach(() => {
  setActivePlugins(NO_PLUGINS);
  setCliAgents(undefined);
  rmSync(base, { recursive: true, force: true });
});

const at = (rel: string) => path.join(base, rel);
function write(rel: string, content: string | object): void {
  mkdirSync(path.dirname(at(rel)), { recursive: true });
  writeFileSync(at(rel), typeof content === 'string' ? content : JSON.stringify(content));
}
const project = () => at('project');
const configDir = () => at('home/.claude');
function activate(dirs: string[], env: Record<string, string> = {}): PluginSet {
  const set = loadPlugins({ cwd: project(), pluginsDir: at('home/.claude/plugins'), dirs, env });
  setActivePlugins(set);
  setCliAgents(undefined); // clears the agent cache, as session set-up does
  return set;
}

describe('commands and skills', () => {
  it('are /plugin:name, subfolders add folder:, and ${CLAUDE_PLUGIN_ROOT} is the plugin folder', () => {
    write('p/myplug/commands/hello.md', '---\ndescription: Say hello\n---\nRun ${CLAUDE_PLUGIN_ROOT}/hi.sh for $ARGUMENTS');
    write('p/myplug/commands/git/push.md', 'push');
    write('p/myplug/skills/pdf/SKILL.md', '---\nname: pdf-filler\ndescription: Fill PDFs\n---\nUse ${CLAUDE_PLUGIN_ROOT}/fill.py');
    activate([at('p/myplug')]);
    const cmds = loadCustomCommands(project(), configDir());
    expect(cmds.map((c) => [c.name, c.source])).toEqual([
      ['myplug:git:push', 'plugin'],
      ['myplug:hello', 'plugin'],
      ['myplug:pdf', 'plugin'],
    ]);
    const hello = cmds.find((c) => c.name === 'myplug:hello')!;
    expect(hello.description).toBe('Say hello');
    expect(expandCustomCommand(hello, 'world', { projectDir: project(), sessionId: 's' })).toBe(`Run ${at('p/myplug')}/hi.sh for world`);
    const skill = loadSkills(project(), configDir()).find((s) => s.name === 'myplug:pdf')!;
    expect(skill).toMatchObject({ description: 'Fill PDFs', skillDir: at('p/myplug/skills/pdf'), modelInvocable: true });
    expect(expandCustomCommand(skill, '', { projectDir: project(), sessionId: 's' })).toBe(`Use ${at('p/myplug')}/fill.py`);
  });

  it('a plugin skill beats a plugin command of the same name; project commands keep their own names', () => {
    write('p/myplug/commands/review.md', 'command review');
    write('p/myplug/skills/review/SKILL.md', 'skill review');
    write('project/.claude/commands/review.md', 'project review');
    activate([at('p/myplug')]);
    const cmds = loadCustomCommands(project(), configDir());
    expect(cmds.map((c) => [c.name, c.body])).toEqual([
      ['review', 'project review'],
      ['myplug:review', 'skill review'],
    ]);
  });

  it('no active plugins: the loaders give what they gave before', () => {
    write('p/myplug/commands/hello.md', 'x');
    loadPlugins({ cwd: project(), pluginsDir: at('none'), dirs: [at('p/myplug')], env: {} }); // loaded but not made active
    expect(loadCustomCommands(project(), configDir())).toEqual([]);
  });
});

describe('agents', () => {
  it('are <plugin>:<name>, below user and project agents, without a permission mode of their own', () => {
    write(
      'p/myplug/agents/rev.md',
      '---\nname: reviewer\ndescription: Reviews\npermissionMode: bypassPermissions\ntools: Read\n---\nCheck with ${CLAUDE_PLUGIN_ROOT}/rules.md',
    );
    write('p/myplug/agents/other.md', '---\nname: other\ndescription: from the plugin\n---\nplugin body');
    write('home/.claude/agents/other.md', '---\nname: myplug:other\ndescription: from the user\n---\nuser body');
    activate([at('p/myplug')]);
    const defs = loadAgentDefinitions(project(), configDir());
    const rev = defs.find((d) => d.name === 'myplug:reviewer')!;
    expect(rev).toMatchObject({ source: 'plugin', tools: ['Read'], systemPrompt: `Check with ${at('p/myplug')}/rules.md` });
    expect(rev.permissionMode).toBeUndefined();
    expect(defs.find((d) => d.name === 'myplug:other')).toMatchObject({ source: 'user', systemPrompt: 'user body' });
  });
});

describe('hooks', () => {
  it('parse as settings hooks, with ${CLAUDE_PLUGIN_ROOT} filled in and CLAUDE_PLUGIN_ROOT in their environment', () => {
    write('p/myplug/hooks/hooks.json', {
      description: 'checks',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/check.sh', timeout: 5 }] }],
        TeammateIdle: [{ hooks: [{ type: 'command', command: 'x' }] }],
      },
    });
    write('p/myplug/.claude-plugin/plugin.json', {
      hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/post.js'] }] }] },
    });
    const set = activate([at('p/myplug')]);
    const root = at('p/myplug');
    expect(set.hooks).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        hooks: [{ type: 'command', command: `${root}/check.sh`, timeout: 5 }],
        source: 'plugin',
        sourcePath: at('p/myplug/hooks/hooks.json'),
        env: { CLAUDE_PLUGIN_ROOT: root },
        plugin: 'myplug',
      },
      {
        event: 'PostToolUse',
        hooks: [{ type: 'command', command: 'node', args: [`${root}/post.js`] }],
        source: 'plugin',
        env: { CLAUDE_PLUGIN_ROOT: root },
        plugin: 'myplug',
      },
    ]);
    expect(set.warnings).toEqual([
      `plugin myplug: ${at('p/myplug/hooks/hooks.json')}: hooks.TeammateIdle: wicket does not fire this event; these hooks never run`,
    ]);
  });

  it('a hooks file that is not JSON is an error of the plugin, which still loads', () => {
    write('p/myplug/hooks/hooks.json', '{ nope');
    const set = activate([at('p/myplug')]);
    expect(set.plugins).toHaveLength(1);
    expect(set.errors).toMatchObject([{ plugin: 'myplug', type: 'hook-load-failed', path: at('p/myplug/hooks/hooks.json') }]);
  });
});

describe('MCP servers', () => {
  it('are plugin:<plugin>:<server>, ${CLAUDE_PLUGIN_ROOT} expanded, CLAUDE_PLUGIN_ROOT in a stdio server’s env; the manifest’s replace .mcp.json’s', () => {
    write('p/myplug/.mcp.json', {
      db: { command: '${CLAUDE_PLUGIN_ROOT}/db', args: ['--config', '${CLAUDE_PLUGIN_ROOT}/c.json'], env: { TOKEN: '${TOKEN}' } },
      api: { command: 'old' },
    });
    write('p/myplug/.claude-plugin/plugin.json', { mcpServers: { mcpServers: { api: { type: 'http', url: 'https://x.test/${CLAUDE_PLUGIN_ROOT}' } } } });
    const root = at('p/myplug');
    const set = activate([root], { TOKEN: 't0k' });
    expect(set.mcpServers).toEqual([
      {
        name: 'plugin:myplug:db',
        scope: 'plugin',
        source: `plugin myplug (${root}/.mcp.json)`,
        config: { type: 'stdio', command: `${root}/db`, args: ['--config', `${root}/c.json`], env: { CLAUDE_PLUGIN_ROOT: root, TOKEN: 't0k' } },
      },
      {
        name: 'plugin:myplug:api',
        scope: 'plugin',
        source: 'plugin myplug (plugin.json "mcpServers")',
        config: { type: 'http', url: `https://x.test/${root}`, headers: {} },
      },
    ]);
  });

  it('rank below every other scope, pass the server policy, and are left out by --strict-mcp-config', () => {
    write('p/myplug/.mcp.json', { a: { command: 'a' }, b: { command: 'b' } });
    const set = activate([at('p/myplug')]);
    write('project/.mcp.json', { mcpServers: { 'plugin:myplug:a': { command: 'project-a' } } });
    const input = { cwd: project(), home: at('home'), env: {}, cliConfigs: [], pluginServers: set.mcpServers };
    const config = loadMcpConfig({ ...input, strict: false, settings: { deniedMcpServers: [{ serverName: 'plugin:myplug:b' }] } });
    expect(config.servers.map((s) => [s.name, s.scope])).toEqual([['plugin:myplug:a', 'project']]);
    expect(config.disabled.map((s) => [s.name, s.offReason])).toEqual([['plugin:myplug:b', 'refused by the deniedMcpServers policy']]);
    expect(config.unapproved).toEqual(['plugin:myplug:a']);
    expect(loadMcpConfig({ ...input, strict: true, settings: {} }).servers).toEqual([]);
  });
});

describe('output styles', () => {
  it('are <plugin>:<name>; a force-for-plugin style becomes the session’s when settings choose none', () => {
    write('p/myplug/output-styles/terse.md', '---\nname: Terse\ndescription: Short\nforce-for-plugin: true\n---\nBe short.');
    activate([at('p/myplug')]);
    expect(loadOutputStyles(project(), configDir()).find((s) => s.name === 'myplug:Terse')).toMatchObject({
      source: 'plugin',
      prompt: 'Be short.',
      description: 'Short',
    });
    const loaded = loadSettings({ cwd: project(), home: at('home'), managedPath: at('etc/managed.json') });
    usePlugins({ bare: false, pluginDir: [at('p/myplug')] }, loaded, { cwd: project(), home: at('home'), env: {} });
    expect(loaded.merged.outputStyle).toBe('myplug:Terse');
  });
});

describe('usePlugins (session set-up)', () => {
  const settings = (data: object) => {
    write('project/.claude/settings.json', data);
    return loadSettings({ cwd: project(), home: at('home'), managedPath: at('etc/managed.json') });
  };

  it('adds the plugins’ hooks to the settings’ and their problems to the warnings; --bare loads none', () => {
    write('p/myplug/hooks/hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    const loaded = settings({ enabledPlugins: { 'ghost@m': true, 'off@m': false } });
    const set = usePlugins({ bare: false, pluginDir: [at('p/myplug')] }, loaded, { cwd: project(), home: at('home'), env: {} });
    expect(set.plugins.map((p) => p.name)).toEqual(['myplug']);
    expect(loaded.hooks.map((g) => [g.event, g.plugin])).toEqual([['Stop', 'myplug']]);
    expect(loaded.warnings).toEqual([expect.stringContaining('plugin "ghost@m" is enabled but not installed')]);
    const bare = settings({ enabledPlugins: { 'ghost@m': true } });
    expect(usePlugins({ bare: true, pluginDir: [at('p/myplug')] }, bare, { cwd: project(), home: at('home'), env: {} })).toBe(NO_PLUGINS);
    expect(bare.hooks).toEqual([]);
    expect(bare.warnings).toEqual([]);
  });

  it('disableAllHooks keeps the plugins’ hooks off too; enabledPlugins merges across settings files', () => {
    write('cache/one/hooks/hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    mkdirSync(at('cache/two'), { recursive: true });
    write('home/.claude/plugins/installed_plugins.json', {
      version: 2,
      plugins: { 'one@m': [{ installPath: at('cache/one') }], 'two@m': [{ installPath: at('cache/two') }] },
    });
    write('home/.claude/settings.json', { enabledPlugins: { 'one@m': true, 'two@m': true } });
    write('project/.claude/settings.local.json', { enabledPlugins: { 'two@m': false } });
    const loaded = settings({ disableAllHooks: true });
    const set = usePlugins({ bare: false, pluginDir: [] }, loaded, { cwd: project(), home: at('home'), env: {} });
    expect(set.plugins.map((p) => p.id)).toEqual(['one@m']);
    expect(loaded.hooks).toEqual([]);
  });

  it('a marketplace the settings only declare (extraKnownMarketplaces) is not used: Claude Code has not added it', () => {
    write('project/mkt/.claude-plugin/marketplace.json', { name: 'team', plugins: [{ name: 'b', source: './b' }] });
    write('project/mkt/b/hooks/hooks.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    const loaded = settings({ extraKnownMarketplaces: { team: { source: { source: 'directory', path: './mkt' } } }, enabledPlugins: { 'b@team': true } });
    const set = usePlugins({ bare: false, pluginDir: [] }, loaded, { cwd: project(), home: at('home'), env: {} });
    expect(set.plugins).toEqual([]);
    expect(set.errors.map((e) => e.type)).toEqual(['plugin-not-found']);
    expect(loaded.hooks).toEqual([]);
  });

  it('CLAUDE_CONFIG_DIR moves where installed plugins are looked up', () => {
    mkdirSync(at('cache/one'), { recursive: true });
    write('alt/plugins/installed_plugins.json', { version: 2, plugins: { 'one@m': [{ installPath: at('cache/one') }] } });
    const loaded = settings({ enabledPlugins: { 'one@m': true } });
    const set = usePlugins({ bare: false, pluginDir: [] }, loaded, { cwd: project(), home: at('home'), env: { CLAUDE_CONFIG_DIR: at('alt') } });
    expect(set.plugins.map((p) => p.id)).toEqual(['one@m']);
  });
});
