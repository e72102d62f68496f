/**
 * Where a plugin enabled in settings (`"name@marketplace": true`) lives, from what Claude Code
 * records on disk under `<config dir>/plugins/`:
 * - `installed_plugins.json`: `{"version": 2, "plugins": {"name@marketplace": [{"scope", "installPath",
 *   "version", "projectPath"?, …}]}}` (version 1 had one record per plugin instead of a list);
 * - else the plugin's marketplace, when it is on disk: `known_marketplaces.json`
 *   (`{"<marketplace>": {"source": {…}, "installLocation": "…"}}`; a `directory` or `file` source is
 *   read where it points), or `marketplaces/<marketplace>/`; its `.claude-plugin/marketplace.json`
 *   lists `plugins: [{"name", "source": "./path", …}]`, and a relative source is a folder of the
 *   marketplace (under `metadata.pluginRoot` for a bare name).
 * Nothing is downloaded or cloned while a session starts: a plugin found nowhere on disk is an error
 * that says how to install it (`wicket plugin install`). A marketplace that settings
 * `extraKnownMarketplaces` only declare is not used: the person is asked before one is added
 * (project-plugins.ts), and `known_marketplaces.json` is where that they agreed is recorded.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { readSettingsFile } from '../settings/read.js';
import { isObject } from '../settings/validate.js';

export interface InstallLookup {
  /** `<config dir>/plugins`. */
  pluginsDir: string;
  /** The session's folder: a project-scoped install record for it is preferred. */
  cwd: string;
}

export type Found = { root: string; id: string; entry?: Record<string, unknown> } | { error: string };

/** The ids `enabledPlugins` turns on, in the order written; `false` (or anything but `true`) turns one off. */
export function enabledPluginIds(value: unknown): string[] {
  if (!isObject(value)) return [];
  return Object.entries(value)
    .filter(([id, on]) => on === true && id.trim() !== '')
    .map(([id]) => id.trim());
}

/** Finds plugins for one session; the record files are read once, and only when asked. */
export class InstalledPlugins {
  private records?: Record<string, unknown>;
  private readonly marketplaces = new Map<string, Record<string, unknown> | undefined>();

  constructor(private readonly lookup: InstallLookup) {}

  get recordsFile(): string {
    return path.join(this.lookup.pluginsDir, 'installed_plugins.json');
  }

  find(wanted: string): Found {
    const id = this.fullId(wanted);
    const at = id.lastIndexOf('@');
    const name = at > 0 ? id.slice(0, at) : id;
    const market = at > 0 ? id.slice(at + 1) : '';
    const recorded = this.fromRecords(id);
    if (recorded && 'root' in recorded) return recorded;
    const listed = market ? this.fromMarketplace(id, name, market) : undefined;
    if (listed && 'root' in listed) return listed;
    const why = [
      recorded?.error ?? `it is not in ${this.recordsFile}`,
      listed?.error ?? (market ? `the marketplace "${market}" is not on disk` : 'no marketplace is named (use name@marketplace)'),
    ];
    return { error: `plugin "${id}" is enabled but not installed: ${why.join(', and ')}. Install it: wicket plugin install ${id}` };
  }

  /** `name` alone names the one recorded plugin of that name, whatever its marketplace. */
  private fullId(wanted: string): string {
    if (wanted.includes('@')) return wanted;
    const ids = Object.keys(this.allRecords()).filter((k) => k.slice(0, k.lastIndexOf('@')) === wanted);
    return ids.length === 1 ? ids[0]! : wanted;
  }

  private allRecords(): Record<string, unknown> {
    if (this.records) return this.records;
    const read = readSettingsFile(this.recordsFile);
    const data = read.status === 'loaded' ? read.data : {};
    this.records = isObject(data.plugins) ? data.plugins : {};
    return this.records;
  }

  /** The install record to use: one for this project first, then any whose folder exists. */
  private fromRecords(id: string): Found | undefined {
    const raw = this.allRecords()[id];
    if (raw === undefined) return undefined;
    const records = (Array.isArray(raw) ? raw : [raw]).filter(isObject).filter((r) => typeof r.installPath === 'string');
    const here = path.resolve(this.lookup.cwd);
    const ordered = [...records.filter((r) => typeof r.projectPath === 'string' && path.resolve(r.projectPath) === here), ...records];
    const usable = ordered.find((r) => isDir(r.installPath as string));
    if (usable) return { root: path.resolve(usable.installPath as string), id };
    const where = records.map((r) => r.installPath as string).join(', ');
    return { error: where ? `${this.recordsFile} records it at ${where}, which is not there` : `${this.recordsFile} has no installPath for it` };
  }

  private fromMarketplace(id: string, name: string, market: string): Found | undefined {
    const roots = this.marketplaceRoots(market);
    for (const { root, file } of roots) {
      const read = readSettingsFile(file);
      if (read.status !== 'loaded') continue;
      const plugins = Array.isArray(read.data.plugins) ? read.data.plugins.filter(isObject) : [];
      const entry = plugins.find((p) => p.name === name);
      if (!entry) return { error: `the marketplace "${market}" (${file}) lists no plugin named ${name}` };
      const meta = isObject(read.data.metadata) ? read.data.metadata : {};
      return pluginFolder(id, entry, root, typeof meta.pluginRoot === 'string' ? meta.pluginRoot : undefined);
    }
    return undefined;
  }

  /** Candidate marketplace folders with their marketplace.json, most specific first. */
  private marketplaceRoots(market: string): Array<{ root: string; file: string }> {
    const out: Array<{ root: string; file: string }> = [];
    const add = (root: string, file = path.join(root, '.claude-plugin', 'marketplace.json')) => {
      if (!out.some((o) => o.file === file)) out.push({ root, file });
    };
    const known = this.knownMarketplace(market);
    const location = typeof known?.installLocation === 'string' ? path.resolve(known.installLocation) : undefined;
    // A downloaded marketplace.json is a file: its plugins come from elsewhere, never from folders of its own.
    if (location) add(location, isFile(location) ? location : undefined);
    const source = known?.source;
    if (isObject(source) && typeof source.path === 'string') {
      const p = path.resolve(this.lookup.cwd, source.path);
      if (source.source === 'directory') add(p);
      else if (source.source === 'file') add(path.basename(path.dirname(p)) === '.claude-plugin' ? path.dirname(path.dirname(p)) : path.dirname(p), p);
    }
    add(path.join(this.lookup.pluginsDir, 'marketplaces', market));
    return out;
  }

  private knownMarketplace(market: string): Record<string, unknown> | undefined {
    if (!this.marketplaces.has('')) {
      const read = readSettingsFile(path.join(this.lookup.pluginsDir, 'known_marketplaces.json'));
      this.marketplaces.set('', read.status === 'loaded' ? read.data : {});
    }
    const entry = this.marketplaces.get('')![market];
    return isObject(entry) ? entry : undefined;
  }
}

/** A marketplace entry's folder: only a relative source is on disk; others would have to be fetched. */
function pluginFolder(id: string, entry: Record<string, unknown>, root: string, pluginRoot: string | undefined): Found {
  const source = entry.source;
  if (typeof source !== 'string') {
    const kind = isObject(source) ? String(source.source ?? 'remote') : typeof source;
    const from = isObject(source) ? String(source.repo ?? source.url ?? source.package ?? '') : '';
    return { error: `its marketplace entry fetches it from a ${kind} source${from ? ` (${from})` : ''}, which is not installed yet` };
  }
  const bare = !source.startsWith('./') && !source.startsWith('../');
  const dir = path.resolve(root, bare && pluginRoot ? pluginRoot : '', source);
  if (!isDir(dir)) return { error: `its marketplace entry points at ${dir}, which is not there` };
  return { root: dir, id, entry };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
