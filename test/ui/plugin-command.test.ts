/** /plugin in the app, and plugin commands among the app's slash commands. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setActivePlugins } from '../../src/plugins/active.js';
import { loadPlugins } from '../../src/plugins/load.js';
import { NO_PLUGINS } from '../../src/plugins/types.js';
import { allCommands, findCommand } from '../../src/ui/commands/index.js';
import { describePlugins } from '../../src/plugins/report.js';
import { pluginCommand } from '../../src/ui/commands/plugin.js';
import type { SessionControl } from '../../src/ui/commands/types.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-plugin-cmd-')));
});
afterEach(() => {
  setActivePlugins(NO_PLUGINS);
  rmSync(dir, { recursive: true, force: true });
});

function write(rel: string, content: string | object): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content));
}

describe('/plugin', () => {
  it('says how to add plugins when there are none', () => {
    expect(describePlugins(NO_PLUGINS)).toContain('Load one with --plugin-dir <folder>');
  });

  it('lists each plugin with where it came from and what it brings, then the problems', async () => {
    write('p/myplug/.claude-plugin/plugin.json', { name: 'myplug', version: '2.0.0' });
    write('p/myplug/commands/hello.md', 'hi');
    write('p/myplug/skills/pdf/SKILL.md', 'pdf');
    write('p/myplug/agents/rev.md', '---\nname: rev\ndescription: d\n---\nx');
    write('p/myplug/hooks/hooks.json', {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'true' },
              { type: 'command', command: 'false' },
            ],
          },
        ],
      },
    });
    write('p/myplug/.mcp.json', { srv: { command: 'node' } });
    write('p/empty/README.md', 'nothing here');
    const set = loadPlugins({
      cwd: dir,
      pluginsDir: path.join(dir, 'none'),
      dirs: [path.join(dir, 'p/myplug'), path.join(dir, 'p/empty')],
      enabled: { 'ghost@m': true },
      env: {},
    });
    setActivePlugins(set);
    const out = await pluginCommand.run('', {} as SessionControl);
    expect(out).toEqual({
      kind: 'info',
      text: [
        'Plugins',
        `  ✓ myplug 2.0.0  (--plugin-dir: ${path.join(dir, 'p/myplug')})`,
        '      1 command, 1 skill, 1 agent, 2 hooks, 1 MCP server',
        `  ✓ empty  (--plugin-dir: ${path.join(dir, 'p/empty')})`,
        '      nothing wicket uses',
        'Problems',
        `  ✗ ghost@m: ${set.errors[0]!.message}`,
      ].join('\n'),
    });
  });

  it('plugin commands are slash commands of the app, marked as the plugin’s in /help', async () => {
    write('p/myplug/commands/hello.md', '---\ndescription: Greets\n---\nSay hello to $ARGUMENTS');
    setActivePlugins(loadPlugins({ cwd: dir, pluginsDir: path.join(dir, 'none'), dirs: [path.join(dir, 'p/myplug')], env: {} }));
    const commands = allCommands(path.join(dir, 'project'), path.join(dir, 'config'));
    const hello = findCommand(commands, 'myplug:hello')!;
    expect(hello).toMatchObject({ source: 'plugin', description: 'Greets' });
    expect(findCommand(commands, 'plugins')).toBe(pluginCommand);
    const help = await findCommand(commands, 'help')!.run('', { commands } as unknown as SessionControl);
    expect(help.kind === 'info' && help.text).toMatch(/\n {2}\/myplug:hello +Greets \(plugin\)\n/);
  });
});
