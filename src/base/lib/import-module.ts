/**
 * Dynamic import for modules outside the main bundle (ES-only packages, the Ink app). The main
 * bundle runs from V8's code cache, and Node 20 drops the `import()` handler of a script compiled
 * from a cache; so the entry module installs an importer here, and code in the bundle imports
 * through it. Without one (tests running the sources), this is a plain `import()`.
 */
import { createRequire } from 'node:module';

type Importer = (specifier: string) => Promise<unknown>;
type BundleLoader = (name: string) => unknown;

const KEY = Symbol.for('wicket.importModule');
const LOADED = Symbol.for('wicket.loadedModules');
const BUNDLES = Symbol.for('wicket.loadBundle');

/**
 * Names of the modules loaded on first use during this run. The entry keeps V8's code cache in step
 * with them: a run that loads one the cache has not seen writes the cache again, now with that code.
 */
export function loadedOnDemand(): Set<string> {
  const g = globalThis as Record<symbol, Set<string> | undefined>;
  return (g[LOADED] ??= new Set());
}

export function installImporter(importer: Importer): void {
  (globalThis as Record<symbol, unknown>)[KEY] = importer;
}

/** A CommonJS package, loaded when first asked for rather than at start-up. */
export function requireModule<T>(id: string): T {
  loadedOnDemand().add(id);
  return createRequire(import.meta.url)(id) as T;
}

export function importModule<T>(specifier: string): Promise<T> {
  if (!specifier.startsWith('file:')) loadedOnDemand().add(specifier);
  const importer = (globalThis as Record<symbol, unknown>)[KEY] as Importer | undefined;
  return (importer ? importer(specifier) : import(specifier)) as Promise<T>;
}

export function installBundleLoader(loader: BundleLoader): void {
  (globalThis as Record<symbol, unknown>)[BUNDLES] = loader;
}

/**
 * A library built as its own bundle (dist/cli/<name>.cjs) so that runs which never use it do not
 * load its code: the entry's loader runs it from V8's code cache. Without a loader (tests running
 * the sources), the package itself.
 */
export function requireBundled<T>(name: string): T {
  const loader = (globalThis as Record<symbol, unknown>)[BUNDLES] as BundleLoader | undefined;
  if (!loader) return requireModule<T>(name);
  loadedOnDemand().add(name);
  return loader(name) as T;
}
