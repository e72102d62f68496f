/**
 * The interactive app (ui/run-app.tsx), which cli/ never imports. Running the sources, it is loaded
 * by its path; the main bundle swaps this module for one that holds the app's code unevaluated
 * (build.mjs): it runs only when the interactive mode starts, and shares the session's code (core,
 * tools, settings) already loaded, from the same code cache.
 */
import type { AppEntry } from '../core/setup/options.js';
import { importModule } from '../base/lib/import-module.js';

export function appLib(): Promise<{ runApp: AppEntry }> {
  return importModule<{ runApp: AppEntry }>(new URL('../ui/run-app.js', import.meta.url).href);
}
