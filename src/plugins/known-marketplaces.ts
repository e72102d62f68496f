/**
 * Claude Code's list of the marketplaces a person added, `<config dir>/plugins/known_marketplaces.json`:
 *   {"<name>": {"source": {…marketplace-source.ts…}, "installLocation": "…", "lastUpdated": "…"}}
 * and a marketplace's copy on disk, opened for reading its plugins: the checked manifest, and the
 * folder its relative plugin sources are read from (none for a downloaded marketplace.json).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { readSettingsFile } from '../settings/read.js';
import { updateSettingsFile } from '../settings/persist.js';
import { isObject } from '../settings/validate.js';
import { readMarketplaceFile, type MarketplaceManifest } from './manifest-schema.js';
import { sourceFromJson, type MarketplaceSource } from './marketplace-source.js';

export interface KnownMarketplace {
  name: string;
  /** The source as recorded, checked; an error when it cannot be used. */
  source: MarketplaceSource | { error: string };
  installLocation?: string;
  lastUpdated?: string;
}

export function knownFile(pluginsDir: string): string {
  return path.join(pluginsDir, 'known_marketplaces.json');
}

export function readKnown(pluginsDir: string): KnownMarketplace[] {
  const read = readSettingsFile(knownFile(pluginsDir));
  if (read.status !== 'loaded') return [];
  return Object.entries(read.data).flatMap(([name, v]) =>
    isObject(v)
      ? [
          {
            name,
            source: sourceFromJson(v.source),
            ...(typeof v.installLocation === 'string' ? { installLocation: v.installLocation } : {}),
            ...(typeof v.lastUpdated === 'string' ? { lastUpdated: v.lastUpdated } : {}),
          },
        ]
      : [],
  );
}

export function findKnown(pluginsDir: string, name: string): KnownMarketplace | undefined {
  return readKnown(pluginsDir).find((m) => m.name === name);
}

export async function recordKnown(pluginsDir: string, name: string, source: MarketplaceSource, installLocation: string): Promise<void> {
  await updateSettingsFile(knownFile(pluginsDir), (data) => {
    data[name] = { source, installLocation, lastUpdated: new Date().toISOString() };
    return true;
  });
}

export async function forgetKnown(pluginsDir: string, name: string): Promise<boolean> {
  let found = false;
  await updateSettingsFile(knownFile(pluginsDir), (data) => {
    found = Object.hasOwn(data, name);
    delete data[name];
    return found;
  });
  return found;
}

export interface MarketplaceCopy {
  name: string;
  manifest: MarketplaceManifest;
  /** The marketplace.json read. */
  file: string;
  /** The marketplace root (the folder holding `.claude-plugin/`): relative plugin sources are read from it. */
  root?: string;
}

/** The marketplace's copy on disk, checked; an error says what is missing or wrong. */
export function openMarketplace(known: KnownMarketplace): MarketplaceCopy | { error: string } {
  const where = known.installLocation;
  if (!where) return { error: `the marketplace "${known.name}" has no copy on disk (no installLocation in known_marketplaces.json)` };
  let isDir: boolean;
  try {
    isDir = statSync(where).isDirectory();
  } catch {
    return { error: `the marketplace "${known.name}" is not on disk at ${where}; update it (wicket plugin marketplace update ${known.name})` };
  }
  const source = 'error' in known.source ? undefined : known.source;
  const rel = source && (source.source === 'github' || source.source === 'git') ? source.path : undefined;
  const file = !isDir ? where : source?.source === 'file' ? source.path : path.join(where, rel ?? path.join('.claude-plugin', 'marketplace.json'));
  const read = readMarketplaceFile(file);
  if ('error' in read) return { error: read.error };
  const dir = path.dirname(file);
  const root = !isDir ? undefined : path.basename(dir) === '.claude-plugin' ? path.dirname(dir) : dir;
  return { name: known.name, manifest: read.ok, file, ...(root ? { root } : {}) };
}
