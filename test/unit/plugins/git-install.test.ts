/**
 * Marketplaces and plugins fetched with the system's git, in-process, against local bare
 * repositories (https://github.com rewritten to them): GitHub and git-subdir sources, a clone that
 * fails, manifests that do not fit (each changes nothing), uninstalling and removing.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManageContext } from '../../../src/plugins/manage-context.js';
import { addMarketplace, removeMarketplace, updateMarketplaces } from '../../../src/plugins/marketplace-manage.js';
import { installPlugin, uninstallPlugin } from '../../../src/plugins/plugin-install.js';
import { githubRewrite, gitRepo, type GitRepo } from '../../support/git-repos.js';

let base: string;
let ctx: ManageContext;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-git-install-')));
  ctx = { cwd: path.join(base, 'project'), home: path.join(base, 'home'), env: { PATH: process.env.PATH, ...githubRewrite(path.join(base, 'github')) } };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const at = (...rel: string[]) => path.join(base, ...rel);
const plugins = (...rel: string[]) => at('home', '.claude', 'plugins', ...rel);
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const records = () => (existsSync(plugins('installed_plugins.json')) ? json(plugins('installed_plugins.json')).plugins : {});
const userSettings = () => (existsSync(at('home', '.claude', 'settings.json')) ? json(at('home', '.claude', 'settings.json')) : {});
const github = (repo: string) => gitRepo(at('src', repo), at('github', `${repo}.git`));
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => '(no error)',
    (err: Error) => err.message,
  );

/** acme/market on "GitHub", with review in a subfolder and the entries given. */
function market(entries: object[] = []): GitRepo {
  return github('acme/market')
    .write({
      '.claude-plugin/marketplace.json': { name: 'acme', owner: { name: 'Acme' }, plugins: [{ name: 'review', source: './plugins/review' }, ...entries] },
      'plugins/review/.claude-plugin/plugin.json': { name: 'review', version: '1.0.0' },
      'plugins/review/commands/check.md': 'Check',
    })
    .commit('one')
    .push();
}

describe('GitHub sources', () => {
  it('owner/repo adds the marketplace; github and git-subdir entries install from their repositories', async () => {
    const gh = github('acme/gh-plugin').write({ 'commands/hi.md': 'Hi' }).commit('one').push();
    const mono = github('acme/mono')
      .write({ 'tools/mono/.claude-plugin/plugin.json': { name: 'mono', version: '0.3.0' }, 'tools/mono/commands/m.md': 'M', 'README.md': 'x' })
      .commit('one')
      .push();
    market([
      { name: 'gh', source: { source: 'github', repo: 'acme/gh-plugin' } },
      { name: 'mono', source: { source: 'git-subdir', url: 'acme/mono', path: 'tools/mono' } },
    ]);
    expect(await addMarketplace(ctx, 'acme/market')).toMatchObject({ name: 'acme', plugins: ['review', 'gh', 'mono'] });
    expect(json(plugins('known_marketplaces.json')).acme).toMatchObject({ source: { source: 'github', repo: 'acme/market' } });
    const short = gh.head().slice(0, 12);
    expect(await installPlugin(ctx, 'gh@acme', 'user')).toEqual({ id: 'gh@acme', installPath: plugins('cache', 'acme', 'gh', short), version: short });
    expect(await installPlugin(ctx, 'mono@acme', 'local')).toMatchObject({ version: '0.3.0' });
    expect(records()['mono@acme']).toEqual([expect.objectContaining({ scope: 'local', projectPath: ctx.cwd, gitCommitSha: mono.head() })]);
    expect(readdirSync(plugins('cache', 'acme', 'mono', '0.3.0')).sort()).toEqual(['.claude-plugin', 'commands']);
    expect(json(at('project', '.claude', 'settings.local.json')).enabledPlugins).toEqual({ 'mono@acme': true });
  });
});

describe('a marketplace.json URL', () => {
  it('is downloaded and kept as the file marketplaces/<name>; its plugins come from their repositories, never from folders of its own', async () => {
    const gh = github('acme/gh-plugin')
      .write({ '.claude-plugin/plugin.json': { name: 'gh', version: '2.1.0' } })
      .commit('one')
      .push();
    const body = JSON.stringify({
      name: 'web',
      owner: { name: 'Web' },
      plugins: [
        { name: 'gh', source: { source: 'url', url: gh.url } },
        { name: 'local', source: './local' },
      ],
    });
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/marketplace.json' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(req.url === '/marketplace.json' ? body : '{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/marketplace.json`;
      expect(await addMarketplace(ctx, url)).toMatchObject({ name: 'web', installLocation: plugins('marketplaces', 'web') });
      expect(json(plugins('known_marketplaces.json')).web.source).toEqual({ source: 'url', url });
      expect(json(plugins('marketplaces', 'web')).plugins).toHaveLength(2);
      expect(await installPlugin(ctx, 'gh@web', 'user')).toMatchObject({ version: '2.1.0' });
      expect(await errorOf(installPlugin(ctx, 'local@web', 'user'))).toContain('"web" is a downloaded marketplace.json with no folders');
      expect(await errorOf(addMarketplace(ctx, url.replace('marketplace.json', 'other.json')))).toContain('HTTP 404');
    } finally {
      server.close();
    }
  });
});

describe('failures change nothing', () => {
  it('a clone that fails names the git command and what git said', async () => {
    const missing = `file://${at('remote', 'none.git')}`;
    const why = await errorOf(addMarketplace(ctx, missing));
    expect(why).toContain(`git clone --depth 1 --no-recurse-submodules -- ${missing} `);
    expect(why).toContain('does not appear to be a git repository');
    market([{ name: 'lint', source: { source: 'url', url: `file://${at('remote', 'lint-gone.git')}` } }]);
    const badRef = await errorOf(addMarketplace(ctx, 'acme/market#nope'));
    expect(badRef).toContain('git clone --depth 1 --no-recurse-submodules --branch nope -- https://github.com/acme/market.git');
    expect(badRef).toContain('Remote branch nope not found');
    expect(existsSync(plugins('known_marketplaces.json'))).toBe(false);
    expect(readdirSync(plugins('marketplaces'))).toEqual([]);

    await addMarketplace(ctx, 'acme/market');
    expect(await errorOf(installPlugin(ctx, 'lint@acme', 'user'))).toContain(
      `git clone --depth 1 --no-recurse-submodules -- file://${at('remote', 'lint-gone.git')}`,
    );
    expect(records()).toEqual({});
    expect(userSettings().enabledPlugins).toBeUndefined();
    expect(readdirSync(plugins('cache'))).toEqual([]);
  });

  it('a repository that asks for credentials fails at once with git’s message, never a prompt', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/team/market.git`;
      const why = await errorOf(addMarketplace(ctx, url));
      expect(why).toContain(`git clone --depth 1 --no-recurse-submodules -- ${url} `);
      expect(why).toMatch(/could not read Username|terminal prompts disabled|Authentication failed/);
      expect(existsSync(plugins('known_marketplaces.json'))).toBe(false);
    } finally {
      server.close();
    }
  });

  it('a marketplace.json that does not fit names the file, the JSON path and what is wrong; an update keeps the copy there', async () => {
    const repo = market();
    await addMarketplace(ctx, 'acme/market');
    repo
      .write({ '.claude-plugin/marketplace.json': { name: 'acme', plugins: [{ name: 'x', source: { source: 'github' } }] } })
      .commit('broken')
      .push();
    const [result] = await updateMarketplaces(ctx, 'acme');
    expect(result).toEqual({
      name: 'acme',
      error: [
        '.claude-plugin/marketplace.json of https://github.com/acme/market.git does not fit the format:',
        '  owner: Invalid input: expected object, received undefined',
        '  plugins[0].source.repo: Invalid input: expected string, received undefined',
        'Nothing was added.',
      ].join('\n'),
    });
    expect(json(plugins('marketplaces', 'acme', '.claude-plugin', 'marketplace.json')).plugins[0].name).toBe('review');
    expect(readdirSync(plugins('marketplaces'))).toEqual(['acme']);
  });

  it('a plugin.json that does not fit names the file, the JSON path and what is wrong; nothing is installed', async () => {
    github('acme/bad')
      .write({ '.claude-plugin/plugin.json': { name: 'bad', version: 2, commands: 5 } })
      .commit('one')
      .push();
    market([{ name: 'bad', source: { source: 'github', repo: 'acme/bad', ref: 'main' } }]);
    await addMarketplace(ctx, 'acme/market');
    expect(await errorOf(installPlugin(ctx, 'bad@acme', 'project'))).toBe(
      [
        'https://github.com/acme/bad.git#main/.claude-plugin/plugin.json does not fit the format:',
        '  version: Invalid input: expected string, received number',
        '  commands: expected string or array',
        'Nothing was installed.',
      ].join('\n'),
    );
    expect(records()).toEqual({});
    expect(existsSync(at('project', '.claude', 'settings.json'))).toBe(false);
    expect(readdirSync(plugins('cache'))).toEqual([]);
  });

  it('npm and pip sources, and unknown plugins or marketplaces, are refused with the reason', async () => {
    market([{ name: 'pkg', source: { source: 'npm', package: '@acme/pkg' } }]);
    await addMarketplace(ctx, 'acme/market');
    expect(await errorOf(installPlugin(ctx, 'pkg@acme', 'user'))).toContain('its source is a npm package, which wicket does not install');
    expect(await errorOf(installPlugin(ctx, 'none@acme', 'user'))).toContain('lists no plugin named none');
    expect(await errorOf(installPlugin(ctx, 'x@elsewhere', 'user'))).toContain('no marketplace named "elsewhere" is added');
    expect(await errorOf(installPlugin(ctx, 'nomarket', 'user'))).toContain('name the plugin as name@marketplace');
  });
});

describe('removing', () => {
  it('uninstall deletes a cached copy no record names; marketplace remove deletes the clone and uninstalls its plugins', async () => {
    market();
    await addMarketplace(ctx, 'acme/market');
    await installPlugin(ctx, 'review@acme', 'user');
    await installPlugin(ctx, 'review@acme', 'project');
    expect(await uninstallPlugin(ctx, 'review@acme', 'project')).toEqual({});
    expect(existsSync(plugins('cache', 'acme', 'review', '1.0.0'))).toBe(true);
    expect(json(at('project', '.claude', 'settings.json')).enabledPlugins).toEqual({});
    expect(await errorOf(uninstallPlugin(ctx, 'review@acme', 'project'))).toContain('review@acme is not installed in the project scope');

    expect(await removeMarketplace(ctx, 'acme')).toEqual(['review@acme']);
    expect(existsSync(plugins('marketplaces', 'acme'))).toBe(false);
    expect(existsSync(plugins('cache', 'acme', 'review', '1.0.0'))).toBe(false);
    expect(json(plugins('known_marketplaces.json'))).toEqual({});
    expect(records()).toEqual({});
    expect(userSettings()).toEqual({ extraKnownMarketplaces: {}, enabledPlugins: {} });
  });
});
