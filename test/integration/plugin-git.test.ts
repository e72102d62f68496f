/**
 * Marketplaces and plugins fetched with git, through the built binary with a temporary HOME: local
 * bare repositories reached by file:// URLs, a tag and a branch, a plugin in a subfolder and one in
 * its own repository, an update that adds a command, a clone that fails and a plugin.json that
 * does not fit. No test reaches the network. (GitHub sources, URL marketplaces, more failures and
 * removal are in test/unit/plugins/git-install.test.ts, in-process.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { gitRepo, type GitRepo } from '../support/git-repos.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();
const run = (args: string[], env?: Record<string, string>) => t.run(args, { timeoutMs: 30_000, ...(env ? { env } : {}) });
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const plugins = (...rel: string[]) => path.join(t.project.home, '.claude', 'plugins', ...rel);
const userSettings = () => json(path.join(t.project.home, '.claude', 'settings.json'));
const records = () => (existsSync(plugins('installed_plugins.json')) ? json(plugins('installed_plugins.json')).plugins : {});
const repos = (rel: string) => path.join(t.project.home, 'repos', rel);
const lastPrompt = () => JSON.stringify((t.api.messageRequests().at(-1)!.body as { messages: Array<{ content: unknown }> }).messages[0]!.content);

/** The team's marketplace: review in a subfolder; more entries as given. */
function teamMarket(entries: object[] = []): GitRepo {
  return gitRepo(repos('src/team'), repos('remote/team.git')).write({
    '.claude-plugin/marketplace.json': { name: 'team', owner: { name: 'Team' }, plugins: [{ name: 'review', source: './plugins/review' }, ...entries] },
    'plugins/review/.claude-plugin/plugin.json': { name: 'review', version: '1.0.0' },
    'plugins/review/commands/check.md': 'Check $ARGUMENTS carefully',
  });
}

/** A plugin in a repository of its own: 1.0.0 tagged v1.0.0, then 2.0.0 on main. */
function lintRepo(): GitRepo {
  return gitRepo(repos('src/lint'), repos('remote/lint.git'))
    .write({ '.claude-plugin/plugin.json': { name: 'lint', version: '1.0.0' }, 'commands/run.md': 'Lint $ARGUMENTS (one)' })
    .commit('1.0.0')
    .tag('v1.0.0')
    .write({ '.claude-plugin/plugin.json': { name: 'lint', version: '2.0.0' }, 'commands/run.md': 'Lint $ARGUMENTS (two)' })
    .commit('2.0.0')
    .push();
}

describe('git marketplaces', () => {
  it('adds a marketplace at a tag; installs a plugin from its subfolder and one from its own repository at a tag; a session runs both', async () => {
    const lint = lintRepo();
    const team = teamMarket([{ name: 'lint', source: { source: 'url', url: lint.url, ref: 'v1.0.0' } }])
      .commit('one')
      .tag('v1');
    const v1 = team.head();
    team.write({ 'plugins/review/commands/later.md': 'Later' }).commit('two').push();

    const added = expectExit(await run(['plugin', 'marketplace', 'add', `${team.url}#v1`]), 0);
    expect(added.stdout).toContain(`Added the marketplace team (2 plugins) at ${plugins('marketplaces', 'team')}.`);
    const source = { source: 'git', url: team.url, ref: 'v1' };
    expect(json(plugins('known_marketplaces.json')).team).toMatchObject({ source, installLocation: plugins('marketplaces', 'team') });
    expect(userSettings().extraKnownMarketplaces).toEqual({ team: { source } });
    expect(existsSync(plugins('marketplaces', 'team', 'plugins', 'review', 'commands', 'later.md'))).toBe(false);

    expectExit(await run(['plugin', 'install', 'review@team']), 0);
    const lintDone = expectExit(await run(['plugin', 'install', 'lint@team']), 0);
    expect(lintDone.stdout).toContain(`Installed lint@team 1.0.0 (${plugins('cache', 'team', 'lint', '1.0.0')})`);
    expect(records()).toEqual({
      'review@team': [expect.objectContaining({ scope: 'user', installPath: plugins('cache', 'team', 'review', '1.0.0'), version: '1.0.0', gitCommitSha: v1 })],
      'lint@team': [expect.objectContaining({ scope: 'user', installPath: plugins('cache', 'team', 'lint', '1.0.0'), version: '1.0.0' })],
    });
    expect(readdirSync(plugins('cache', 'team', 'lint', '1.0.0')).sort()).toEqual(['.claude-plugin', 'commands']);
    expect(userSettings().enabledPlugins).toEqual({ 'review@team': true, 'lint@team': true });

    t.api.script(reply().text('ok'), reply().text('ok'));
    expectExit(await run(['-p', '/review:check src']), 0);
    expect(lastPrompt()).toContain('Check src carefully');
    expectExit(await run(['-p', '/lint:run all']), 0);
    expect(lastPrompt()).toContain('Lint all (one)');
  });

  it('follows a branch: a pushed commit that adds a command reaches sessions after plugin update', async () => {
    const team = teamMarket().commit('one').push();
    expectExit(await run(['plugin', 'marketplace', 'add', `${team.url}#main`]), 0);
    expectExit(await run(['plugin', 'install', 'review@team']), 0);
    team
      .write({
        'plugins/review/.claude-plugin/plugin.json': { name: 'review', version: '1.1.0' },
        'plugins/review/commands/deep.md': 'Look deeper at $ARGUMENTS',
      })
      .commit('deep')
      .push();

    const updated = expectExit(await run(['plugin', 'update', 'review@team']), 0);
    expect(updated.stdout).toContain('Updated review@team from 1.0.0 to 1.1.0 (user scope).');
    expect(records()['review@team']).toEqual([
      expect.objectContaining({ installPath: plugins('cache', 'team', 'review', '1.1.0'), gitCommitSha: team.head() }),
    ]);
    t.api.script(reply().text('ok'));
    expectExit(await run(['-p', '/review:deep the parser']), 0);
    expect(lastPrompt()).toContain('Look deeper at the parser');

    expect(expectExit(await run(['plugin', 'update']), 0).stdout).toContain('review@team is already at the latest version (1.1.0, user scope).');
    expect(expectExit(await run(['plugin', 'marketplace', 'update', 'team']), 0).stdout).toBe('Updated the marketplace team (1 plugin).\n');
  });
});

describe('failures through the binary', () => {
  it('a clone that fails names the command and git’s message; a plugin.json that does not fit names the file and JSON path; neither changes anything', async () => {
    const missing = `file://${repos('remote/none.git')}`;
    const clone = expectExit(await run(['plugin', 'marketplace', 'add', missing]), 1);
    expect(clone.stderr).toContain(`wicket plugin: cannot add the marketplace ${missing}: git clone --depth 1 --no-recurse-submodules -- ${missing} `);
    expect(clone.stderr).toContain('does not appear to be a git repository');
    expect(existsSync(plugins('known_marketplaces.json'))).toBe(false);

    const team = teamMarket([{ name: 'bad', source: './plugins/bad' }])
      .write({ 'plugins/bad/.claude-plugin/plugin.json': { name: 'bad', version: 2 } })
      .commit('one')
      .push();
    expectExit(await run(['plugin', 'marketplace', 'add', team.url]), 0);
    const bad = expectExit(await run(['plugin', 'install', 'bad@team']), 1);
    expect(bad.stderr).toBe(
      [
        `wicket plugin: cannot install bad@team: ${plugins('marketplaces', 'team', 'plugins', 'bad', '.claude-plugin', 'plugin.json')} does not fit the format:`,
        '  version: Invalid input: expected string, received number',
        'Nothing was installed.',
        '',
      ].join('\n'),
    );
    expect(records()).toEqual({});
    expect(userSettings().enabledPlugins).toBeUndefined();
    expect(readdirSync(plugins('cache'))).toEqual([]);
  });
});
