/**
 * Brings a marketplace to disk where Claude Code keeps it, under `<config dir>/plugins/marketplaces/`:
 * - a git or github source is cloned (git.ts) into a scratch folder there, its marketplace.json
 *   checked (manifest-schema.ts), and only then moved to `marketplaces/<name>/`, replacing the
 *   clone that was there; a clone that fails or a manifest that does not fit leaves the old clone
 *   and the records as they were;
 * - a `url` source is downloaded, checked, and written as the file `marketplaces/<name>`;
 * - a `directory` or `file` source is read where it is, nothing is copied.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { proxyDispatcher, proxyFor } from '../api/proxy.js';
import { writeAtomic } from '../base/fs/atomic-write.js';
import { randomHex } from '../base/ids.js';
import { isInside, replaceWith } from './disk.js';
import { cloneRepo } from './git.js';
import { checkMarketplace, readMarketplaceFile, type MarketplaceManifest } from './manifest-schema.js';
import { gitUrlOf, type MarketplaceSource } from './marketplace-source.js';

const MANIFEST = path.join('.claude-plugin', 'marketplace.json');
const MAX_MANIFEST_BYTES = 5 * 1024 * 1024;

export interface FetchedMarketplace {
  name: string;
  manifest: MarketplaceManifest;
  /** Where Claude Code records it: the clone's folder, the downloaded file, or the folder on disk. */
  installLocation: string;
}

export interface FetchOptions {
  /** `<config dir>/plugins`. */
  pluginsDir: string;
  env: Record<string, string | undefined>;
  /** The name settings declare it under: the marketplace.json must give the same. */
  expectName?: string;
}

export class MarketplaceError extends Error {}

export async function fetchMarketplace(source: MarketplaceSource, o: FetchOptions): Promise<FetchedMarketplace> {
  switch (source.source) {
    case 'github':
    case 'git':
      return fromGit(source, o);
    case 'url':
      return fromUrl(source, o);
    case 'directory':
      return onDisk(path.join(source.path, MANIFEST), source.path, o);
    case 'file': {
      const dir = path.dirname(source.path);
      return onDisk(source.path, path.basename(dir) === '.claude-plugin' ? path.dirname(dir) : dir, o);
    }
  }
}

function onDisk(file: string, root: string, o: FetchOptions): FetchedMarketplace {
  const manifest = checked(readMarketplaceFile(file), o);
  return { name: manifest.name, manifest, installLocation: root };
}

async function fromGit(source: Extract<MarketplaceSource, { source: 'github' | 'git' }>, o: FetchOptions): Promise<FetchedMarketplace> {
  const dir = marketplacesDir(o);
  mkdirSync(dir, { recursive: true });
  const scratch = path.join(dir, `.incoming-${randomHex(6)}`);
  try {
    await cloneRepo(gitUrlOf(source), scratch, { ...(source.ref ? { ref: source.ref } : {}) }, o.env);
    const file = path.resolve(scratch, source.path ?? MANIFEST);
    if (!isInside(file, scratch) || file === scratch) throw new MarketplaceError(`the source's "path" (${source.path}) leads out of the repository`);
    const label = `${path.relative(scratch, file)} of ${gitUrlOf(source)}${source.ref ? `#${source.ref}` : ''}`;
    const read = readMarketplaceFile(file);
    const manifest = checked('error' in read ? { error: read.error.replaceAll(file, label) } : read, o);
    const home = path.join(dir, manifest.name);
    replaceWith(scratch, home);
    return { name: manifest.name, manifest, installLocation: home };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function fromUrl(source: Extract<MarketplaceSource, { source: 'url' }>, o: FetchOptions): Promise<FetchedMarketplace> {
  const text = await download(source.url, source.headers ?? {});
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new MarketplaceError(`${source.url} is not JSON: ${(err as Error).message}`);
  }
  const manifest = checked(checkMarketplace(data, source.url), o);
  const file = path.join(marketplacesDir(o), manifest.name);
  if (existsSync(file) && statSync(file).isDirectory()) rmSync(file, { recursive: true, force: true });
  await writeAtomic(file, Buffer.from(`${JSON.stringify(data, null, 2)}\n`), { createParents: true });
  return { name: manifest.name, manifest, installLocation: file };
}

async function download(url: string, headers: Record<string, string>): Promise<string> {
  const target = new URL(url);
  const proxy = proxyFor(target);
  const dispatcher = proxy ? await proxyDispatcher(proxy) : undefined;
  let res: Response;
  try {
    res = await fetch(target, { headers, signal: AbortSignal.timeout(60_000), ...(dispatcher ? { dispatcher } : {}) } as RequestInit);
  } catch (err) {
    const cause = (err as { cause?: Error }).cause?.message;
    throw new MarketplaceError(`downloading ${url} failed: ${cause ?? (err as Error).message}`);
  }
  if (!res.ok) throw new MarketplaceError(`downloading ${url} failed: HTTP ${res.status} ${res.statusText}`);
  const body = await res.text();
  if (body.length > MAX_MANIFEST_BYTES) throw new MarketplaceError(`${url} is larger than a marketplace.json may be (5 MB)`);
  return body;
}

function checked(r: { ok: MarketplaceManifest } | { error: string }, o: FetchOptions): MarketplaceManifest {
  if ('error' in r) throw new MarketplaceError(`${r.error}\nNothing was added.`);
  if (o.expectName !== undefined && r.ok.name !== o.expectName)
    throw new MarketplaceError(`it is declared as "${o.expectName}", but its marketplace.json names it "${r.ok.name}"; nothing was added`);
  return r.ok;
}

export function marketplacesDir(o: { pluginsDir: string }): string {
  return path.join(o.pluginsDir, 'marketplaces');
}
