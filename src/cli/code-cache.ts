/**
 * Loads a CommonJS bundle (the main one, or a library built as its own bundle, like zod) through
 * `vm.Script` with V8's code cache, so a run does not parse and compile the whole bundle again.
 * Node 20 has no compile cache for ES modules; this halves the cost of loading the code.
 *
 * The cache is named after the bundle and a hash of it, so a rebuilt bundle never meets an old cache, and
 * V8 itself rejects a cache from another Node version or other V8 flags (then it is written anew).
 * It lives beside the bundle when that folder is writable, else under ~/.wicket/cache.
 *
 * A cache holds the code the run that wrote it compiled. A sidecar lists the modules that run
 * loaded on demand (zod, ripgrep, the Bash parser…) and its mode (print or interactive); a later
 * run that loads one more, or runs in the other mode, writes the cache again, so after a few runs
 * it covers the modes and tools actually used.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';

/**
 * What the build writes around each bundle (build.mjs), so the file's text is the script V8 compiles
 * as it is: joining it to the wrapper here would make V8 copy the whole megabyte into one string
 * first. A file without it (a bundle made by hand) is wrapped here.
 */
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname) {';
export const BUNDLE_TAIL = '\n})';

export interface LoadedBundle {
  exports: Record<string, unknown>;
  /** What became of the cache: none found, used, or rejected by V8 (another Node version, other flags, damaged). */
  cache: 'none' | 'used' | 'rejected';
  /**
   * Writes the cache when there was none, V8 rejected it, or this run loaded on demand a module the
   * cache had not seen (`loaded`); call after the run, so it holds the functions the run compiled.
   */
  saveCache(loaded?: ReadonlySet<string>): void;
}

/**
 * `flavor`: caches kept apart by how the run goes (the interactive app's first frame compiles other
 * functions than print mode, and a cache read costs by its size): `app`, or none for the others.
 */
export function loadBundle(file: string, hash: string, flavor?: string): LoadedBundle {
  const base = path.basename(file, '.cjs');
  const name = `${base}-${hash}${flavor ? `-${flavor}` : ''}.v8cache`;
  const dirs = [path.join(path.dirname(file), '.cache'), path.join(process.env.WICKET_HOME || path.join(homedir(), '.wicket'), 'cache')];
  const { source, cachedData, found } = readSourceAndCache(
    file,
    dirs.map((dir) => path.join(dir, name)),
  );
  const seen = found ? readSeen(`${found}.json`) : [];
  const wrapped = source.startsWith(BUNDLE_HEAD) ? source : `${BUNDLE_HEAD}${source}${BUNDLE_TAIL}`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const mod = { exports: {} as Record<string, unknown>, filename: file, id: file, loaded: false };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const cache = !cachedData ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  return {
    exports: mod.exports,
    cache,
    saveCache(loaded = new Set()) {
      const unseen = [...loaded].filter((m) => !seen.includes(m));
      if (cache === 'used' && unseen.length === 0) return;
      writeCache(dirs, { base, name, hash }, script, [...(cache === 'used' ? seen : []), ...unseen].sort());
    },
  };
}

/**
 * The bundle's text and the first cache found, read through one buffer: the text is decoded out of it
 * (the build keeps bundles pure ASCII, which latin1 decodes fastest), then the cache is read over it.
 * Every page a start touches first costs a page fault; a second megabyte of buffer would cost 256.
 */
function readSourceAndCache(file: string, caches: string[]): { source: string; cachedData?: Buffer; found?: string } {
  const src = openSync(file, 'r');
  let cache: { fd: number; size: number; path: string } | undefined;
  for (const c of caches) {
    try {
      const fd = openSync(c, 'r');
      cache = { fd, size: fstatSync(fd).size, path: c };
      break;
    } catch {
      // not there (or unreadable): the next place, else none
    }
  }
  try {
    const size = fstatSync(src).size;
    const buf = Buffer.allocUnsafeSlow(Math.max(size, cache?.size ?? 0));
    if (readInto(src, buf, size) !== size) throw new Error(`${file}: the file changed while it was read`);
    const source = buf.toString('latin1', 0, size);
    if (!cache || cache.size === 0) return { source };
    try {
      if (readInto(cache.fd, buf, cache.size) === cache.size) return { source, cachedData: buf.subarray(0, cache.size), found: cache.path };
    } catch {
      // an unreadable cache only costs speed
    }
    return { source };
  } finally {
    closeSync(src);
    if (cache) closeSync(cache.fd);
  }
}

/** Reads up to `size` bytes from the start of `fd` into `buf`; the count read. */
function readInto(fd: number, buf: Buffer, size: number): number {
  let done = 0;
  while (done < size) {
    const n = readSync(fd, buf, done, size - done, done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

function readSeen(file: string): string[] {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function writeCache(dirs: string[], { base, name, hash }: { base: string; name: string; hash: string }, script: Script, seen: string[]): void {
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
      writeFileSync(tmp, JSON.stringify(seen));
      renameSync(tmp, path.join(dir, `${name}.json`));
      removeOthers(dir, base, hash);
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

/** Caches of older builds of the same bundle (any flavor) are never read again. */
function removeOthers(dir: string, base: string, hash: string): void {
  const older = new RegExp(`^${base.replace(/[^\w]/g, '\\$&')}-([0-9a-f]+)(-\\w+)?\\.v8cache(\\.json)?$`);
  for (const f of readdirSync(dir)) {
    const m = older.exec(f);
    if (m && m[1] !== hash) rmSync(path.join(dir, f), { force: true });
  }
}
