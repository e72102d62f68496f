/** What settings declare (extraKnownMarketplaces) and enable (enabledPlugins) that this machine lacks, and adding it. */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManageContext } from '../../../src/plugins/manage-context.js';
import { addMarketplace } from '../../../src/plugins/marketplace-manage.js';
import { installPlugin } from '../../../src/plugins/plugin-install.js';
import { addMissing, describeMissing, missingPlugins, rememberDeclined, wasDeclined } from '../../../src/plugins/project-plugins.js';

let base: string;
let ctx: ManageContext;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-project-plugins-')));
  ctx = { cwd: path.join(base, 'project'), home: path.join(base, 'home'), env: { PATH: process.env.PATH } };
  write('market/.claude-plugin/marketplace.json', { name: 'team', owner: { name: 'T' }, plugins: [{ name: 'review', source: './review' }] });
  write('market/review/.claude-plugin/plugin.json', { name: 'review', version: '1.0.0' });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(rel: string, content: object): void {
  mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
  writeFileSync(path.join(base, rel), JSON.stringify(content));
}
const declared = () => ({ team: { source: { source: 'directory', path: path.join(base, 'market') } } });

describe('missingPlugins', () => {
  it('lists the declared marketplaces not added and the enabled plugins not installed, each with the scope that enables it', () => {
    write('project/.claude/settings.json', { enabledPlugins: { 'review@team': true } });
    const merged = {
      extraKnownMarketplaces: { ...declared(), broken: { source: { source: 'github' } } },
      enabledPlugins: { 'review@team': true, 'other@unknown': true, 'off@team': false },
    };
    const m = missingPlugins(ctx, merged);
    expect(m).toEqual({
      marketplaces: [{ name: 'team', source: { source: 'directory', path: path.join(base, 'market') } }],
      plugins: [{ id: 'review@team', scope: 'project' }],
      problems: ['extraKnownMarketplaces.broken: a "github" source needs "repo" as owner/repo'],
    });
    expect(describeMissing(m)).toEqual([
      'The settings here name plugins this machine does not have yet:',
      `  marketplace team (${path.join(base, 'market')}): wicket plugin marketplace add ${path.join(base, 'market')}`,
      '  plugin review@team: wicket plugin install review@team -s project',
      'Run those commands; the app (wicket without -p) offers to add them when it starts.',
      'extraKnownMarketplaces.broken: a "github" source needs "repo" as owner/repo',
    ]);
  });

  it('adding what is missing leaves nothing missing; a second marketplace that fails is reported, the rest added', async () => {
    const merged = {
      extraKnownMarketplaces: { ...declared(), gone: { source: { source: 'directory', path: path.join(base, 'gone') } } },
      enabledPlugins: { 'review@team': true },
    };
    const seen: string[] = [];
    const done = await addMissing(ctx, missingPlugins(ctx, merged), (l) => seen.push(l));
    expect(done.failed).toBe(1);
    expect(done.lines).toEqual([
      'Added the marketplace team.',
      `Could not add the marketplace gone: ${path.join(base, 'gone', '.claude-plugin', 'marketplace.json')}: there is no such file\nNothing was added.`,
      'Installed review@team 1.0.0 (user scope).',
    ]);
    expect(seen).toContain('Installing review@team…');
    expect(missingPlugins(ctx, merged)).toMatchObject({ marketplaces: [{ name: 'gone' }], plugins: [] });
  });

  it('a declined offer is remembered for the same set only', async () => {
    const wicketHome = path.join(base, 'wicket');
    const m = missingPlugins(ctx, { extraKnownMarketplaces: declared() });
    expect(await wasDeclined(wicketHome, ctx.cwd, m)).toBe(false);
    await rememberDeclined(wicketHome, ctx.cwd, m);
    expect(await wasDeclined(wicketHome, ctx.cwd, m)).toBe(true);
    const more = missingPlugins(ctx, { extraKnownMarketplaces: declared(), enabledPlugins: { 'review@team': true } });
    expect(await wasDeclined(wicketHome, ctx.cwd, more)).toBe(false);
  });
});

describe('a marketplace folder on disk', () => {
  it('a plugin folder that links out of the marketplace is not copied', async () => {
    write('secrets/.claude-plugin/plugin.json', { name: 'linked' });
    write('market/.claude-plugin/marketplace.json', { name: 'team', owner: { name: 'T' }, plugins: [{ name: 'linked', source: './linked' }] });
    symlinkSync(path.join(base, 'secrets'), path.join(base, 'market', 'linked'));
    await addMarketplace(ctx, path.join(base, 'market'));
    await expect(installPlugin(ctx, 'linked@team', 'user')).rejects.toThrow(
      `its source (./linked) leads out of the marketplace folder ${path.join(base, 'market')}`,
    );
    expect(existsSync(path.join(ctx.home, '.claude', 'plugins', 'cache', 'team', 'linked'))).toBe(false);
  });
});
