/**
 * A plugin's files from where its marketplace entry says they live, into Claude Code's plugin cache,
 * `<config dir>/plugins/cache/<marketplace>/<plugin>/<version>/` (without `.git`):
 *   "./path"                                       a folder of the marketplace (under metadata.pluginRoot for a bare name)
 *   {"source": "github", "repo", "ref"?, "sha"?}   its own GitHub repository
 *   {"source": "url", "url", "ref"?, "sha"?}        its own git repository, any URL git takes
 *   {"source": "git-subdir", "url", "path", …}      a folder of another repository (`url` may be owner/repo)
 * The files are gathered in a scratch folder and their plugin.json checked there; only a plugin
 * that fits is moved into the cache, so a failed clone or a broken manifest installs nothing.
 * The version is the one Claude Code gives it: plugin.json's `version`, else the entry's, else the
 * first 12 characters of the commit it came from, else "unknown".
 */
import { mkdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomHex } from '../base/ids.js';
import { copyTree, isInside, replaceWith } from './disk.js';
import { cloneRepo, headCommit } from './git.js';
import type { MarketplaceCopy } from './known-marketplaces.js';
import { readPluginManifest, type MarketplaceEntry, type PluginManifest } from './manifest-schema.js';

export class PluginFetchError extends Error {}

export interface StagedPlugin {
  /** The scratch folder holding the plugin's files. */
  dir: string;
  version: string;
  gitCommitSha?: string;
  manifest?: PluginManifest;
  /** Removes the scratch files (after placing, nothing is left to remove). */
  discard(): void;
}

export interface FetchPluginOptions {
  pluginsDir: string;
  env: Record<string, string | undefined>;
}

export async function stagePlugin(market: MarketplaceCopy, entry: MarketplaceEntry, o: FetchPluginOptions): Promise<StagedPlugin> {
  const cache = path.join(o.pluginsDir, 'cache');
  mkdirSync(cache, { recursive: true });
  const scratch = path.join(cache, `.incoming-${randomHex(6)}`);
  const discard = () => rmSync(scratch, { recursive: true, force: true });
  try {
    const dir = path.join(scratch, 'plugin');
    const got = await gather(market, entry, dir, scratch, o.env);
    const manifest = readPluginManifest(path.join(dir, '.claude-plugin', 'plugin.json'));
    if ('error' in manifest) throw new PluginFetchError(`${manifest.error.replaceAll(dir, got.label)}\nNothing was installed.`);
    const version = manifest.ok?.version ?? entry.version ?? got.sha?.slice(0, 12) ?? 'unknown';
    return { dir, version, ...(got.sha ? { gitCommitSha: got.sha } : {}), ...(manifest.ok ? { manifest: manifest.ok } : {}), discard };
  } catch (err) {
    discard();
    throw err;
  }
}

/** Moves a staged plugin to its place in the cache; returns that folder. */
export function placeInCache(staged: StagedPlugin, pluginsDir: string, marketplace: string, plugin: string): string {
  const home = path.join(pluginsDir, 'cache', marketplace, plugin, staged.version.replace(/[^\w.+-]/g, '-') || 'unknown');
  mkdirSync(path.dirname(home), { recursive: true });
  replaceWith(staged.dir, home);
  staged.discard();
  return home;
}

/** Puts the plugin's files at `dir`; `label` stands for `dir` in messages (where the files came from). */
async function gather(
  market: MarketplaceCopy,
  entry: MarketplaceEntry,
  dir: string,
  scratch: string,
  env: FetchPluginOptions['env'],
): Promise<{ sha?: string; label: string }> {
  const source = entry.source;
  if (typeof source === 'string') return fromMarketplace(market, source, dir, env);
  const pin = { ...(typeof source.ref === 'string' ? { ref: source.ref } : {}), ...(typeof source.sha === 'string' ? { sha: source.sha } : {}) };
  const at = pin.sha ?? pin.ref;
  if (source.source === 'github' || source.source === 'url') {
    const url = source.source === 'github' ? `https://github.com/${String(source.repo)}.git` : String(source.url);
    await cloneRepo(url, dir, pin, env);
    const sha = await headCommit(dir, env);
    rmSync(path.join(dir, '.git'), { recursive: true, force: true });
    return { ...(sha ? { sha } : {}), label: `${url}${at ? `#${at}` : ''}` };
  }
  if (source.source === 'git-subdir') {
    const raw = String(source.url);
    const url = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(raw) ? `https://github.com/${raw}.git` : raw;
    const clone = path.join(scratch, 'clone');
    await cloneRepo(url, clone, pin, env);
    const sub = path.resolve(clone, String(source.path));
    if (!isInside(sub, clone) || sub === clone) throw new PluginFetchError(`its "path" (${String(source.path)}) leads out of ${url}`);
    if (!isDir(sub)) throw new PluginFetchError(`${url}${at ? `#${at}` : ''} has no folder ${String(source.path)}`);
    copyTree(sub, dir);
    const sha = await headCommit(clone, env);
    return { ...(sha ? { sha } : {}), label: `${url}${at ? `#${at}` : ''}:${String(source.path)}` };
  }
  throw new PluginFetchError(
    `its source is a ${String(source.source)} package, which wicket does not install; install it with Claude Code (claude plugin install)`,
  );
}

async function fromMarketplace(market: MarketplaceCopy, source: string, dir: string, env: FetchPluginOptions['env']): Promise<{ sha?: string; label: string }> {
  if (!market.root)
    throw new PluginFetchError(`its source is the folder ${source} of the marketplace, and "${market.name}" is a downloaded marketplace.json with no folders`);
  const bare = !source.startsWith('./') && !source.startsWith('../');
  const pluginRoot = market.manifest.metadata?.pluginRoot;
  const from = path.resolve(market.root, bare && pluginRoot ? pluginRoot : '', source);
  if (!isDir(from)) throw new PluginFetchError(`its source is ${from}, which is not a folder`);
  // Links followed: a folder of the marketplace that links elsewhere on this machine is not copied.
  if (!isInside(realpathSync(from), realpathSync(market.root)))
    throw new PluginFetchError(`its source (${source}) leads out of the marketplace folder ${market.root}`);
  copyTree(from, dir);
  const sha = await headCommit(market.root, env);
  return { ...(sha ? { sha } : {}), label: from };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
