/**
 * The interactive app (ui/run-app.tsx), which cli/ never imports. Running the sources, it is loaded
 * by its path. The build swaps this module: in dist/cli/app.cjs (main and the app, which the entry
 * runs when the run is likely interactive) for a static import of the app; in the main bundle, which
 * print mode runs without the app's code, for one that asks the entry for app.cjs (build.mjs).
 */
import type { AppEntry } from '../core/setup/options.js';
import { importModule } from '../base/lib/import-module.js';

export function appLib(): Promise<{ runApp: AppEntry }> {
  return importModule<{ runApp: AppEntry }>(new URL('../ui/run-app.js', import.meta.url).href);
}
