/**
 * A team's `.claude/settings.json` that names a git marketplace (`extraKnownMarketplaces`) and its
 * plugins (`enabledPlugins`), on a new teammate's machine, through the built binary: print mode
 * fetches nothing and says what is missing with the commands that add it; after those commands the
 * session has the plugins, and the records are Claude Code's.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { gitRepo } from '../support/git-repos.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();
const run = (args: string[]) => t.run(args, { timeoutMs: 30_000 });
const lastPrompt = () => JSON.stringify((t.api.messageRequests().at(-1)!.body as { messages: Array<{ content: unknown }> }).messages[0]!.content);

describe("a project's declared plugins in print mode", () => {
  it('says which marketplaces and plugins are missing and how to add them, fetches nothing; the commands it names give the session the plugins', async () => {
    const team = gitRepo(path.join(t.project.home, 'src/team'), path.join(t.project.home, 'remote/team.git'))
      .write({
        '.claude-plugin/marketplace.json': { name: 'team', owner: { name: 'Team' }, plugins: [{ name: 'review', source: './review' }] },
        'review/.claude-plugin/plugin.json': { name: 'review', version: '1.0.0' },
        'review/commands/check.md': 'Check $ARGUMENTS as the team does',
      })
      .commit('one')
      .tag('v1')
      .push();
    await t.project.write(
      '.claude/settings.json',
      JSON.stringify({
        extraKnownMarketplaces: { team: { source: { source: 'git', url: team.url, ref: 'v1' } } },
        enabledPlugins: { 'review@team': true },
      }),
    );
    t.api.script(reply().text('first'), reply().text('second'));
    const first = expectExit(await run(['-p', 'hi']), 0);
    expect(first.stdout).toBe('first\n');
    expect(first.stderr).toContain(
      [
        'wicket: warning: The settings here name plugins this machine does not have yet:',
        `  marketplace team (${team.url}#v1): wicket plugin marketplace add ${team.url}#v1`,
        '  plugin review@team: wicket plugin install review@team -s project',
      ].join('\n'),
    );
    expect(first.stderr).not.toContain('plugin "review@team" is enabled but not installed');
    expect(existsSync(path.join(t.project.home, '.claude', 'plugins', 'known_marketplaces.json'))).toBe(false);

    expectExit(await run(['plugin', 'marketplace', 'add', `${team.url}#v1`]), 0);
    expectExit(await run(['plugin', 'install', 'review@team', '-s', 'project']), 0);
    const second = expectExit(await run(['-p', '/review:check the diff']), 0);
    expect(second.stderr).toBe('');
    expect(lastPrompt()).toContain('Check the diff as the team does');
    const records = JSON.parse(readFileSync(path.join(t.project.home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8'));
    expect(records).toEqual({
      version: 2,
      plugins: {
        'review@team': [
          {
            scope: 'project',
            projectPath: t.project.dir,
            installPath: path.join(t.project.home, '.claude', 'plugins', 'cache', 'team', 'review', '1.0.0'),
            version: '1.0.0',
            gitCommitSha: team.head(),
            installedAt: expect.any(String),
            lastUpdated: expect.any(String),
          },
        ],
      },
    });
  });
});
