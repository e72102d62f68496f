/** `wicket plugin install|uninstall|enable|disable` and `wicket plugin marketplace …` through the built binary, in Claude Code's files. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();
const run = (args: string[]) => t.run(args, { timeoutMs: 30_000 });
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const firstPrompt = () => JSON.stringify((t.api.messageRequests().at(-1)!.body as { messages: Array<{ content: unknown }> }).messages[0]!.content);

/** A marketplace folder "team" in the project with one plugin, deploy, whose command is /deploy:go. */
function marketplace(): string {
  const root = t.project.path('vendor/team-market');
  const write = (rel: string, content: string | object) => {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  };
  write('.claude-plugin/marketplace.json', { name: 'team', owner: { name: 'Team' }, plugins: [{ name: 'deploy', source: './deploy' }] });
  write('deploy/.claude-plugin/plugin.json', { name: 'deploy', version: '1.2.0' });
  write('deploy/commands/go.md', 'Deploy $ARGUMENTS now');
  return root;
}

describe('wicket plugin', () => {
  it('adds a marketplace on disk, installs a plugin from it into the cache, and a session then loads it; disable and uninstall turn it off', async () => {
    const root = marketplace();
    const added = await run(['plugin', 'marketplace', 'add', './vendor/team-market']);
    expectExit(added, 0);
    expect(added.stdout).toContain(`Added the marketplace team (1 plugin) at ${root}.`);
    const known = json(path.join(t.project.home, '.claude', 'plugins', 'known_marketplaces.json'));
    expect(known.team).toMatchObject({ source: { source: 'directory', path: root }, installLocation: root });
    expect((await run(['plugin', 'marketplace', 'list'])).stdout).toBe(`team  ${root}  ${root}\n`);

    const installed = await run(['plugin', 'install', 'deploy@team']);
    expectExit(installed, 0);
    const userSettings = path.join(t.project.home, '.claude', 'settings.json');
    const cached = path.join(t.project.home, '.claude', 'plugins', 'cache', 'team', 'deploy', '1.2.0');
    expect(installed.stdout).toContain(`Installed deploy@team 1.2.0 (${cached}), enabled in ${userSettings}`);
    expect(json(userSettings).enabledPlugins).toEqual({ 'deploy@team': true });
    t.api.script(reply().text('deployed'), reply().text('plain'));
    expectExit(await run(['-p', '/deploy:go staging']), 0);
    expect(firstPrompt()).toContain('Deploy staging now');

    expectExit(await run(['plugin', 'disable', 'deploy@team']), 0);
    expect(json(userSettings).enabledPlugins).toEqual({ 'deploy@team': false });
    expectExit(await run(['-p', '/deploy:go staging']), 0);
    expect(firstPrompt()).not.toContain('Deploy staging now');

    expectExit(await run(['plugin', 'uninstall', 'deploy@team']), 0);
    expect(json(userSettings).enabledPlugins).toEqual({});
    const again = await run(['plugin', 'uninstall', 'deploy@team']);
    expectExit(again, 1);
    expect(again.stderr).toContain(`deploy@team is not installed in the user scope`);
    expectExit(await run(['plugin', 'marketplace', 'remove', 'team']), 0);
    expect(json(path.join(t.project.home, '.claude', 'plugins', 'known_marketplaces.json'))).toEqual({});
  });

  it('--scope project and local write the project files, keeping what else they hold', async () => {
    marketplace();
    await t.project.write('.claude/settings.json', JSON.stringify({ permissions: { allow: ['Read'] } }, null, 4));
    expectExit(await run(['plugin', 'marketplace', 'add', t.project.path('vendor/team-market/.claude-plugin/marketplace.json')]), 0);
    expectExit(await run(['plugin', 'install', 'deploy@team', '--scope', 'project']), 0);
    const project = readFileSync(t.project.path('.claude/settings.json'), 'utf8');
    expect(JSON.parse(project)).toEqual({ permissions: { allow: ['Read'] }, enabledPlugins: { 'deploy@team': true } });
    expect(project).toContain('\n    "permissions"');
    expectExit(await run(['plugin', 'enable', 'deploy@team', '-s', 'local']), 0);
    expect(json(t.project.path('.claude/settings.local.json')).enabledPlugins).toEqual({ 'deploy@team': true });
  });

  it('explains what it cannot do: a plugin the marketplace does not list, a source it cannot read, a folder without one, bad usage', async () => {
    marketplace();
    expectExit(await run(['plugin', 'marketplace', 'add', './vendor/team-market']), 0);
    const missing = await run(['plugin', 'install', 'nothere@team']);
    expectExit(missing, 1);
    expect(missing.stderr).toContain('cannot install nothere@team: ');
    expect(missing.stderr).toContain('lists no plugin named nothere');
    const nonsense = await run(['plugin', 'marketplace', 'add', 'plugins']);
    expectExit(nonsense, 1);
    expect(nonsense.stderr).toContain('"plugins" is not a marketplace source');
    const empty = await run(['plugin', 'marketplace', 'add', '.']);
    expectExit(empty, 1);
    expect(empty.stderr).toContain(`${t.project.path('.claude-plugin/marketplace.json')}: there is no such file`);
    expectExit(await run(['plugin', 'install', 'deploy']), 1);
    expectExit(await run(['plugin', 'install', 'deploy@team', '-s', 'everywhere']), 2);
    expect(t.api.messageRequests()).toEqual([]);
  });
});
