/**
 * Installing, updating and uninstalling a plugin of a known marketplace, as Claude Code does:
 * - install fetches the plugin (plugin-fetch.ts) into the cache, records it in
 *   installed_plugins.json for the scope (with the project for project and local scopes), and turns
 *   it on in that scope's `enabledPlugins`;
 * - update fetches it again from the marketplace's copy on disk and, when the version differs,
 *   installs the new one in its own cache folder and points the record at it (the old folder stays
 *   for sessions still using it until no record names it);
 * - uninstall takes out the scope's record and `enabledPlugins` entry, and the cache folder once no
 *   record names it.
 * A failure leaves the records, the settings and the cache as they were.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { dropRecord, putRecord, readRecords, recordMatches, recordsFile, type InstallRecord } from './install-records.js';
import { findKnown, openMarketplace, type MarketplaceCopy } from './known-marketplaces.js';
import { type ManageContext, type PluginScope, pluginsDirOf, projectPathOf, scopeFile, setPluginEnabled, splitId } from './manage-context.js';
import type { MarketplaceEntry } from './manifest-schema.js';
import { placeInCache, stagePlugin } from './plugin-fetch.js';

export interface Installed {
  id: string;
  installPath: string;
  version: string;
}

/** The marketplace's copy and the plugin's entry in it; throws saying which is missing. */
export function findEntry(ctx: ManageContext, id: string): { market: MarketplaceCopy; entry: MarketplaceEntry } {
  const { name, marketplace } = splitId(id);
  const known = findKnown(pluginsDirOf(ctx), marketplace);
  if (!known) throw new Error(`no marketplace named "${marketplace}" is added; add it first (wicket plugin marketplace add <source>)`);
  const market = openMarketplace(known);
  if ('error' in market) throw new Error(market.error);
  const entry = market.manifest.plugins.find((p) => p.name === name);
  if (!entry) throw new Error(`the marketplace "${marketplace}" (${market.file}) lists no plugin named ${name}`);
  return { market, entry };
}

export async function installPlugin(ctx: ManageContext, id: string, scope: PluginScope): Promise<Installed> {
  const { market, entry } = findEntry(ctx, id);
  const installed = await fetchAndRecord(ctx, id, market, entry, scope);
  await setPluginEnabled(ctx, id, scope, true);
  return installed;
}

async function fetchAndRecord(ctx: ManageContext, id: string, market: MarketplaceCopy, entry: MarketplaceEntry, scope: PluginScope): Promise<Installed> {
  const pluginsDir = pluginsDirOf(ctx);
  const staged = await stagePlugin(market, entry, { pluginsDir, env: ctx.env });
  const installPath = placeInCache(staged, pluginsDir, market.name, entry.name);
  const projectPath = projectPathOf(ctx, scope);
  await putRecord(pluginsDir, id, {
    scope,
    ...(projectPath ? { projectPath } : {}),
    installPath,
    version: staged.version,
    ...(staged.gitCommitSha ? { gitCommitSha: staged.gitCommitSha } : {}),
  });
  return { id, installPath, version: staged.version };
}

export type UpdateOutcome =
  | { id: string; scope: PluginScope; from: string; to: string }
  | { id: string; scope: PluginScope; current: string }
  | { id: string; error: string };

/**
 * Updates the installs of `id` (every installed plugin when undefined) that this place uses: the
 * user's, and this project's project and local ones (only `scope`'s when given).
 */
export async function updateInstalled(ctx: ManageContext, id: string | undefined, scope?: PluginScope): Promise<UpdateOutcome[]> {
  const records = readRecords(pluginsDirOf(ctx));
  const ids = id ? [id] : Object.keys(records).sort();
  if (id && !records[id]) throw new Error(`${id} is not installed (${recordsFile(pluginsDirOf(ctx))} has no record of it)`);
  const out: UpdateOutcome[] = [];
  for (const one of ids) {
    const mine = (records[one] ?? []).filter((r) => (!scope || r.scope === scope) && recordMatches(r, r.scope, projectPathOf(ctx, r.scope)));
    if (!mine.length && id) throw new Error(`${id} is not installed${scope ? ` in the ${scope} scope` : ''} here`);
    for (const record of mine) out.push(await updateOne(ctx, one, record));
  }
  return out;
}

async function updateOne(ctx: ManageContext, id: string, record: InstallRecord): Promise<UpdateOutcome> {
  try {
    const { market, entry } = findEntry(ctx, id);
    const pluginsDir = pluginsDirOf(ctx);
    const staged = await stagePlugin(market, entry, { pluginsDir, env: ctx.env });
    // As Claude Code: the same version is the latest (unless its files are gone).
    if (staged.version === record.version && existsSync(record.installPath)) {
      staged.discard();
      return { id, scope: record.scope, current: record.version };
    }
    const installPath = placeInCache(staged, pluginsDir, market.name, entry.name);
    await putRecord(pluginsDir, id, { ...record, installPath, version: staged.version, ...(staged.gitCommitSha ? { gitCommitSha: staged.gitCommitSha } : {}) });
    return { id, scope: record.scope, from: record.version, to: staged.version };
  } catch (err) {
    return { id, error: (err as Error).message };
  }
}

/** Takes the plugin out of the scope: its record, its `enabledPlugins` entry, and its cache folder once nothing names it. */
export async function uninstallPlugin(ctx: ManageContext, id: string, scope: PluginScope): Promise<{ removedFiles?: string }> {
  const pluginsDir = pluginsDirOf(ctx);
  const dropped = await dropRecord(pluginsDir, id, scope, projectPathOf(ctx, scope));
  const unlisted = await setPluginEnabled(ctx, id, scope, undefined);
  if (!dropped && !unlisted)
    throw new Error(`${id} is not installed in the ${scope} scope (not in ${recordsFile(pluginsDir)} nor in ${scopeFile(ctx, scope)})`);
  if (!dropped) return {};
  const stillUsed = Object.values(readRecords(pluginsDir)).some((list) => list.some((r) => path.resolve(r.installPath) === path.resolve(dropped.installPath)));
  const inCache = path.resolve(dropped.installPath).startsWith(path.join(pluginsDir, 'cache') + path.sep);
  if (stillUsed || !inCache) return {};
  rmSync(dropped.installPath, { recursive: true, force: true });
  return { removedFiles: dropped.installPath };
}
