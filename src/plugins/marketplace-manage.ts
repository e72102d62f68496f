/**
 * `wicket plugin marketplace add|update|remove|list`, as Claude Code's commands do them:
 * - add fetches the marketplace (marketplace-fetch.ts), records it in known_marketplaces.json and
 *   declares it in the user's `extraKnownMarketplaces`;
 * - update fetches each (or the named) marketplace again from its recorded source; one that fails
 *   keeps its copy and says why, and the others go on;
 * - remove uninstalls the plugins installed from it, deletes its clone or downloaded file (never a
 *   folder of the person's own that was added from disk), and takes it out of both files.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { isInside } from './disk.js';
import { readRecords } from './install-records.js';
import { findKnown, forgetKnown, readKnown, recordKnown } from './known-marketplaces.js';
import { declareMarketplace, type ManageContext, pluginsDirOf } from './manage-context.js';
import { fetchMarketplace, marketplacesDir } from './marketplace-fetch.js';
import { describeSource, parseMarketplaceSource, type MarketplaceSource } from './marketplace-source.js';
import { uninstallPlugin } from './plugin-install.js';

export interface Added {
  name: string;
  plugins: string[];
  installLocation: string;
  /** A note when the user settings could not record the declaration. */
  note?: string;
}

/** Adds the marketplace a person typed (`owner/repo`, a URL, a path). */
export async function addMarketplace(ctx: ManageContext, input: string): Promise<Added> {
  const source = parseMarketplaceSource(input, ctx.cwd, ctx.home);
  if ('error' in source) throw new Error(source.error);
  return addFromSource(ctx, source);
}

/**
 * Adds a marketplace from its source object: a person's (declared in their user settings, as Claude
 * Code's `marketplace add` does), or one the settings already declare under `expectName`.
 */
export async function addFromSource(ctx: ManageContext, source: MarketplaceSource, expectName?: string): Promise<Added> {
  const pluginsDir = pluginsDirOf(ctx);
  const fetched = await fetchMarketplace(source, { pluginsDir, env: ctx.env, ...(expectName ? { expectName } : {}) });
  await recordKnown(pluginsDir, fetched.name, source, fetched.installLocation);
  let note: string | undefined;
  if (expectName === undefined)
    await declareMarketplace(ctx, fetched.name, source).catch((err: Error) => (note = `It was not declared in your user settings: ${err.message}`));
  return { name: fetched.name, plugins: fetched.manifest.plugins.map((p) => p.name), installLocation: fetched.installLocation, ...(note ? { note } : {}) };
}

export type MarketplaceUpdate = { name: string; plugins: number } | { name: string; error: string };

/** Fetches the named marketplace (every known one when undefined) again from its recorded source. */
export async function updateMarketplaces(ctx: ManageContext, name?: string): Promise<MarketplaceUpdate[]> {
  const pluginsDir = pluginsDirOf(ctx);
  const all = readKnown(pluginsDir);
  if (name && !all.some((m) => m.name === name)) throw new Error(`no marketplace named "${name}" is added`);
  const out: MarketplaceUpdate[] = [];
  for (const m of all.filter((k) => !name || k.name === name)) {
    if ('error' in m.source) {
      out.push({ name: m.name, error: `its recorded source cannot be used: ${m.source.error}` });
      continue;
    }
    try {
      const fetched = await fetchMarketplace(m.source, { pluginsDir, env: ctx.env, expectName: m.name });
      await recordKnown(pluginsDir, m.name, m.source, fetched.installLocation);
      out.push({ name: m.name, plugins: fetched.manifest.plugins.length });
    } catch (err) {
      out.push({ name: m.name, error: (err as Error).message });
    }
  }
  return out;
}

/** Removes the marketplace and what was installed from it; returns the plugin ids uninstalled. */
export async function removeMarketplace(ctx: ManageContext, name: string): Promise<string[]> {
  const pluginsDir = pluginsDirOf(ctx);
  const known = findKnown(pluginsDir, name);
  if (!known) throw new Error(`no marketplace named "${name}" is added`);
  const uninstalled: string[] = [];
  for (const [id, records] of Object.entries(readRecords(pluginsDir))) {
    if (!id.endsWith(`@${name}`)) continue;
    for (const r of records) {
      const here = r.scope === 'user' || r.projectPath === path.resolve(ctx.cwd);
      if (!here) continue;
      await uninstallPlugin(ctx, id, r.scope).catch(() => undefined);
      if (!uninstalled.includes(id)) uninstalled.push(id);
    }
  }
  const copy = known.installLocation && path.resolve(known.installLocation);
  if (copy && isInside(copy, marketplacesDir({ pluginsDir })) && copy !== marketplacesDir({ pluginsDir })) rmSync(copy, { recursive: true, force: true });
  await forgetKnown(pluginsDir, name);
  await declareMarketplace(ctx, name, undefined).catch(() => undefined);
  return uninstalled;
}

/** The known marketplaces: name, source and where their copy is. */
export function listMarketplaces(ctx: ManageContext): Array<{ name: string; source: string; location: string }> {
  return readKnown(pluginsDirOf(ctx)).map((m) => ({
    name: m.name,
    source: 'error' in m.source ? `(unusable source: ${m.source.error})` : describeSource(m.source),
    location: m.installLocation ?? '(not on disk)',
  }));
}
