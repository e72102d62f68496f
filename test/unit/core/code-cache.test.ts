import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../src/cli/code-cache.js';

let dir: string;
let bundle: string;
const savedHome = process.env.WICKET_HOME;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-cache-')));
  mkdirSync(path.join(dir, 'cli'));
  bundle = path.join(dir, 'cli', 'main.cjs');
  // A bundle with some functions, its own require, and the CommonJS names.
  writeFileSync(
    bundle,
    'const p = require("node:path"); function add(a, b) { return a + b; }\n' +
      'exports.main = (x) => add(x, 1); exports.file = __filename; exports.base = p.basename(__dirname); exports.self = module.exports === exports;',
  );
  process.env.WICKET_HOME = path.join(dir, 'home');
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.WICKET_HOME;
  else process.env.WICKET_HOME = savedHome;
  rmSync(dir, { recursive: true, force: true });
});

const cacheFile = () => path.join(dir, 'cli', '.cache', 'main-abc123.v8cache');

describe('code cache', () => {
  it('runs the bundle as CommonJS, writes the cache after the run, and uses it the next time', () => {
    const first = loadBundle(bundle, 'abc123');
    expect((first.exports.main as (x: number) => number)(41)).toBe(42);
    expect(first.exports).toMatchObject({ file: bundle, base: 'cli', self: true });
    expect(first.cache).toBe('none');
    first.saveCache();
    expect(existsSync(cacheFile())).toBe(true);

    const second = loadBundle(bundle, 'abc123');
    expect(second.cache).toBe('used');
    expect((second.exports.main as (x: number) => number)(1)).toBe(2);
  });

  it('rejects a damaged cache, still runs, and writes a good one', () => {
    mkdirSync(path.dirname(cacheFile()));
    writeFileSync(cacheFile(), Buffer.alloc(2048, 7));
    const loaded = loadBundle(bundle, 'abc123');
    expect(loaded.cache).toBe('rejected');
    expect((loaded.exports.main as (x: number) => number)(2)).toBe(3);
    loaded.saveCache();
    expect(loadBundle(bundle, 'abc123').cache).toBe('used');
  });

  it('keeps only the cache of the current bundle', () => {
    mkdirSync(path.dirname(cacheFile()));
    writeFileSync(path.join(dir, 'cli', '.cache', 'main-0ld.v8cache'), 'old');
    writeFileSync(path.join(dir, 'cli', '.cache', 'main-99.v8cache'), 'old');
    loadBundle(bundle, 'abc123').saveCache();
    expect(readdirSync(path.join(dir, 'cli', '.cache')).sort()).toEqual(['main-0ld.v8cache', 'main-abc123.v8cache', 'main-abc123.v8cache.json']);
  });

  it('names the cache after the bundle, and leaves the caches of other bundles alone', () => {
    const lib = path.join(dir, 'cli', 'zod.cjs');
    writeFileSync(lib, 'exports.z = 26;');
    const loaded = loadBundle(lib, 'f00d');
    expect(loaded.exports.z).toBe(26);
    loaded.saveCache();
    loadBundle(bundle, 'abc123').saveCache();
    expect(readdirSync(path.join(dir, 'cli', '.cache')).sort()).toEqual([
      'main-abc123.v8cache',
      'main-abc123.v8cache.json',
      'zod-f00d.v8cache',
      'zod-f00d.v8cache.json',
    ]);
    expect(loadBundle(lib, 'f00d').cache).toBe('used');
  });

  it('is written again when a run loads on demand a module the cache has not seen, and only then', () => {
    loadBundle(bundle, 'abc123').saveCache(new Set(['zod']));
    const seen = () => JSON.parse(readFileSync(`${cacheFile()}.json`, 'utf8'));
    expect(seen()).toEqual(['zod']);
    const stamp = () => statSync(cacheFile()).mtimeMs;
    utimesSync(cacheFile(), 1, 1);
    loadBundle(bundle, 'abc123').saveCache(new Set(['zod']));
    expect(stamp()).toBe(1000); // nothing new: left alone
    const third = loadBundle(bundle, 'abc123');
    expect(third.cache).toBe('used');
    third.saveCache(new Set(['zod', '@vscode/ripgrep']));
    expect(stamp()).not.toBe(1000);
    expect(seen()).toEqual(['@vscode/ripgrep', 'zod']);
    expect(loadBundle(bundle, 'abc123').cache).toBe('used');
  });

  it('falls back to ~/.wicket/cache when the bundle folder cannot hold the cache', () => {
    writeFileSync(path.join(dir, 'cli', '.cache'), 'a file where the folder would be');
    loadBundle(bundle, 'abc123').saveCache();
    const homeCache = path.join(dir, 'home', 'cache', 'main-abc123.v8cache');
    expect(existsSync(homeCache)).toBe(true);
    expect(loadBundle(bundle, 'abc123').cache).toBe('used');
  });
});
