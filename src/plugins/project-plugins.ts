/**
 * A team's plugins, named in settings as Claude Code reads them: `extraKnownMarketplaces`
 * (`{"team": {"source": {"source": "github", "repo": "acme/plugins"}}}`) says where marketplaces
 * come from, `enabledPlugins` which of their plugins to use. On a machine that lacks some of them,
 * the app offers (once the folder is trusted) to add the marketplaces and install the plugins, each
 * in the scope whose settings file turns it on; print mode never fetches anything, and says what is
 * missing and the commands that add it. An offer turned down is not made again for the same set.
 */
import path from 'node:path';
import { readFile } from '../base/fs/lazy-fs.js';
import { localSettingsPath, projectSettingsPath } from '../settings/paths.js';
import { readSettingsFile } from '../settings/read.js';
import { updateSettingsFile } from '../settings/persist.js';
import { isObject } from '../settings/validate.js';
import { enabledPluginIds, InstalledPlugins } from './installed.js';
import { readKnown } from './known-marketplaces.js';
import { type ManageContext, type PluginScope, pluginsDirOf, splitId } from './manage-context.js';
import { addFromSource } from './marketplace-manage.js';
import { describeSource, sourceArgument, sourceFromJson, type MarketplaceSource } from './marketplace-source.js';
import { installPlugin } from './plugin-install.js';

export interface MissingPlugins {
  marketplaces: Array<{ name: string; source: MarketplaceSource }>;
  /** Enabled plugins of a known or declared marketplace that are not installed, with the scope that enables them. */
  plugins: Array<{ id: string; scope: PluginScope }>;
  /** Declarations that cannot be used, each naming the key. */
  problems: string[];
}

/** What the merged settings declare and enable that this machine lacks. */
export function missingPlugins(ctx: ManageContext, merged: Record<string, unknown>): MissingPlugins {
  const pluginsDir = pluginsDirOf(ctx);
  const known = new Set(readKnown(pluginsDir).map((m) => m.name));
  const out: MissingPlugins = { marketplaces: [], plugins: [], problems: [] };
  const declared = isObject(merged.extraKnownMarketplaces) ? merged.extraKnownMarketplaces : {};
  for (const [name, value] of Object.entries(declared)) {
    if (known.has(name)) continue;
    const source = sourceFromJson(isObject(value) ? value.source : undefined);
    if ('error' in source) out.problems.push(`extraKnownMarketplaces.${name}: ${source.error}`);
    else out.marketplaces.push({ name, source });
  }
  const coming = new Set(out.marketplaces.map((m) => m.name));
  const installed = new InstalledPlugins({ pluginsDir, cwd: ctx.cwd });
  for (const id of enabledPluginIds(merged.enabledPlugins)) {
    if (!/^[^@\s]+@[^@\s]+$/.test(id)) continue;
    const market = splitId(id).marketplace;
    if (!known.has(market) && !coming.has(market)) continue;
    if (known.has(market) && 'root' in installed.find(id)) continue;
    out.plugins.push({ id, scope: enablingScope(ctx, id) });
  }
  return out;
}

export function nothingMissing(m: MissingPlugins): boolean {
  return !m.marketplaces.length && !m.plugins.length;
}

/** The most specific settings file that turns the plugin on: its install goes in that scope. */
function enablingScope(ctx: ManageContext, id: string): PluginScope {
  const on = (file: string) => {
    const read = readSettingsFile(file);
    return read.status === 'loaded' && isObject(read.data.enabledPlugins) && read.data.enabledPlugins[id] === true;
  };
  if (on(localSettingsPath(ctx.cwd))) return 'local';
  return on(projectSettingsPath(ctx.cwd)) ? 'project' : 'user';
}

/** Lines for print mode (and `wicket plugin list`): what is missing, and the commands that add it. */
export function describeMissing(m: MissingPlugins): string[] {
  if (nothingMissing(m)) return m.problems;
  return [
    'The settings here name plugins this machine does not have yet:',
    ...m.marketplaces.map((x) => `  marketplace ${x.name} (${describeSource(x.source)}): wicket plugin marketplace add ${sourceArgument(x.source)}`),
    ...m.plugins.map((p) => `  plugin ${p.id}: wicket plugin install ${p.id}${p.scope === 'user' ? '' : ` -s ${p.scope}`}`),
    'Run those commands; the app (wicket without -p) offers to add them when it starts.',
    ...m.problems,
  ];
}

/** Adds the marketplaces, then installs the plugins; one line per step, telling `progress` as it goes. */
export async function addMissing(ctx: ManageContext, m: MissingPlugins, progress: (line: string) => void): Promise<{ lines: string[]; failed: number }> {
  const lines: string[] = [];
  let failed = 0;
  const say = (line: string, bad = false) => {
    if (bad) failed++;
    lines.push(line);
    progress(line);
  };
  const notAdded = new Set<string>();
  for (const x of m.marketplaces) {
    progress(`Adding the marketplace ${x.name} from ${describeSource(x.source)}…`);
    await addFromSource(ctx, x.source, x.name).then(
      (a) => say(`Added the marketplace ${a.name}.`),
      (err: Error) => (notAdded.add(x.name), say(`Could not add the marketplace ${x.name}: ${err.message}`, true)),
    );
  }
  for (const p of m.plugins) {
    if (notAdded.has(splitId(p.id).marketplace)) continue;
    progress(`Installing ${p.id}…`);
    await installPlugin(ctx, p.id, p.scope).then(
      (i) => say(`Installed ${p.id} ${i.version} (${p.scope} scope).`),
      (err: Error) => say(`Could not install ${p.id}: ${err.message}`, true),
    );
  }
  return { lines, failed };
}

/** A key for the set on offer: an offer turned down is not made again until the set changes. */
function offerKey(m: MissingPlugins): string {
  return JSON.stringify([m.marketplaces.map((x) => [x.name, x.source]), m.plugins.map((p) => p.id)]);
}

const offersFile = (wicketHome: string) => path.join(wicketHome, 'plugin-offers.json');

export async function wasDeclined(wicketHome: string, cwd: string, m: MissingPlugins): Promise<boolean> {
  try {
    const data = JSON.parse(await readFile(offersFile(wicketHome), 'utf8')) as Record<string, unknown>;
    return data[path.resolve(cwd)] === offerKey(m);
  } catch {
    return false;
  }
}

export async function rememberDeclined(wicketHome: string, cwd: string, m: MissingPlugins): Promise<void> {
  await updateSettingsFile(offersFile(wicketHome), (data) => {
    data[path.resolve(cwd)] = offerKey(m);
    return true;
  });
}
