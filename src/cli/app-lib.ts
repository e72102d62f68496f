/**
 * The interactive app (ui/run-app.tsx), which cli/ never imports. Running the sources, it is loaded
 * by its path; the main bundle swaps this module for one that asks the entry for dist/cli/app.cjs, a
 * bundle of its own run from its own code cache (build.mjs), so print mode never reads the app's code.
 */
import type { AppEntry } from '../core/setup/options.js';
import { importModule } from '../base/lib/import-module.js';

export function appLib(): Promise<{ runApp: AppEntry }> {
  return importModule<{ runApp: AppEntry }>(new URL('../ui/run-app.js', import.meta.url).href);
}
