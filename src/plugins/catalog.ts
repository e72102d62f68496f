/**
 * What the app's /plugin screen shows, read from Claude Code's files as they are now: the plugins
 * installed for this place (the user's, and this project's project and local installs) with whether
 * settings turn them on and whether this session loaded them; the plugins of the known marketplaces
 * not installed yet; the marketplaces; and what went wrong.
 */
import { loadSettings } from '../settings/load.js';
import { enabledPluginIds } from './installed.js';
import { readRecords, type InstallScope } from './install-records.js';
import { openMarketplace, readKnown } from './known-marketplaces.js';
import { type ManageContext, pluginsDirOf } from './manage-context.js';
import { describeSource } from './marketplace-source.js';
import type { PluginSet } from './types.js';

export interface InstalledItem {
  id: string;
  version: string;
  /** The most specific scope it is installed in here (its switch is that scope's settings file). */
  scope: InstallScope;
  enabled: boolean;
  /** Loaded in this session. */
  loaded: boolean;
  description?: string;
}

export interface AvailableItem {
  id: string;
  marketplace: string;
  version?: string;
  description?: string;
}

export interface MarketplaceItem {
  name: string;
  source: string;
  plugins: number;
  lastUpdated?: string;
  error?: string;
}

export interface PluginCatalog {
  installed: InstalledItem[];
  available: AvailableItem[];
  marketplaces: MarketplaceItem[];
  errors: string[];
}

const SPECIFIC: InstallScope[] = ['local', 'project', 'user'];

export function pluginCatalog(ctx: ManageContext, active: PluginSet): PluginCatalog {
  const pluginsDir = pluginsDirOf(ctx);
  const merged = loadSettings({ cwd: ctx.cwd, home: ctx.home, configDir: ctx.configDir, trusted: () => true }).merged;
  const on = new Set(enabledPluginIds(merged.enabledPlugins));
  const loaded = new Set(active.plugins.flatMap((p) => (p.id ? [p.id] : [])));
  const installed: InstalledItem[] = [];
  for (const [id, records] of Object.entries(readRecords(pluginsDir)).sort(([a], [b]) => a.localeCompare(b))) {
    const here = records.filter((r) => r.scope === 'user' || r.projectPath === ctx.cwd);
    const record = SPECIFIC.map((s) => here.find((r) => r.scope === s)).find(Boolean);
    if (!record) continue;
    const plugin = active.plugins.find((p) => p.id === id);
    installed.push({
      id,
      version: record.version,
      scope: record.scope,
      enabled: on.has(id),
      loaded: loaded.has(id),
      ...(plugin?.description ? { description: plugin.description } : {}),
    });
  }
  const taken = new Set(installed.map((i) => i.id));
  const available: AvailableItem[] = [];
  const marketplaces: MarketplaceItem[] = [];
  for (const known of readKnown(pluginsDir)) {
    const source = 'error' in known.source ? known.source.error : describeSource(known.source);
    const copy = openMarketplace(known);
    const base = { name: known.name, source, ...(known.lastUpdated ? { lastUpdated: known.lastUpdated } : {}) };
    if ('error' in copy) {
      marketplaces.push({ ...base, plugins: 0, error: copy.error });
      continue;
    }
    marketplaces.push({ ...base, plugins: copy.manifest.plugins.length });
    for (const entry of copy.manifest.plugins) {
      const id = `${entry.name}@${known.name}`;
      if (taken.has(id)) continue;
      available.push({
        id,
        marketplace: known.name,
        ...(entry.version ? { version: entry.version } : {}),
        ...(entry.description ? { description: entry.description } : {}),
      });
    }
  }
  const errors = [
    ...active.errors.map((e) => `${e.plugin}: ${e.message}`),
    ...marketplaces.flatMap((m) => (m.error ? [`marketplace ${m.name}: ${m.error}`] : [])),
  ];
  return { installed, available, marketplaces, errors };
}
