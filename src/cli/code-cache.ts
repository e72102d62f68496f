/**
 * Loads the CommonJS main bundle through `vm.Script` with V8's code cache, so a run does not parse
 * and compile the whole bundle again. Node 20 has no compile cache for ES modules; this halves the
 * cost of loading the code.
 *
 * The cache is named after a hash of the bundle, so a rebuilt bundle never meets an old cache, and
 * V8 itself rejects a cache from another Node version or other V8 flags (then it is written anew).
 * It lives beside the bundle when that folder is writable, else under ~/.wicket/cache.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';

export interface LoadedBundle {
  exports: Record<string, unknown>;
  /** What became of the cache: none found, used, or rejected by V8 (another Node version, other flags, damaged). */
  cache: 'none' | 'used' | 'rejected';
  /** Writes the cache when there was none or V8 rejected it; call after the run, so it holds the functions the run compiled. */
  saveCache(): void;
}

export function loadBundle(file: string, hash: string): LoadedBundle {
  const name = `main-${hash}.v8cache`;
  const dirs = [path.join(path.dirname(file), '.cache'), path.join(process.env.WICKET_HOME || path.join(homedir(), '.wicket'), 'cache')];
  const found = dirs.map((d) => path.join(d, name)).find((f) => existsSync(f));
  const cachedData = found ? readQuietly(found) : undefined;
  const source = readFileSync(file, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const mod = { exports: {} as Record<string, unknown>, filename: file, id: file, loaded: false };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const cache = !cachedData ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  return {
    exports: mod.exports,
    cache,
    saveCache() {
      if (cache !== 'used') writeCache(dirs, name, script);
    },
  };
}

function readQuietly(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(dirs: string[], name: string, script: Script): void {
  let data: Buffer;
  try {
    data = script.createCachedData();
  } catch {
    return;
  }
  for (const dir of dirs) {
    const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, data);
      renameSync(tmp, path.join(dir, name));
      removeOthers(dir, name);
      return;
    } catch {
      // Not writable (a shared install): try the next place. A missing cache only costs speed.
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing was written there
      }
    }
  }
}

/** Caches of older bundles are never read again. */
function removeOthers(dir: string, keep: string): void {
  for (const f of readdirSync(dir)) {
    if (f !== keep && /^main-[0-9a-f]+\.v8cache$/.test(f)) rmSync(path.join(dir, f), { force: true });
  }
}
