/**
 * The interactive app's entry. The Ink app is imported dynamically, so print mode never loads React.
 * Ink decides once, when it loads, whether it runs under CI (and then draws only the last frame);
 * a person at a terminal gets the live app even when CI is set in their environment.
 */
import { setFlagsFromString } from 'node:v8';
import type { AppEntry, CliOptions } from '../core/setup/options.js';
import { importModule } from '../base/lib/import-module.js';

export async function runInteractive(opts: CliOptions, info: { version: string; saveCodeCache?: () => void }): Promise<number> {
  // A cache written after the flags below change would be rejected at the next start.
  info.saveCodeCache?.();
  // Frames allocate fast and die young: a small young generation and a heap that collects before it
  // grows keep peak memory flat, however long the transcript (the same flags as bench/tui.ts).
  setFlagsFromString('--max-semi-space-size=4');
  setFlagsFromString('--optimize-for-size');
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  const atTerminal = process.stdout.isTTY === true && process.stdin.isTTY === true;
  if (atTerminal) {
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
  }
  let runApp: AppEntry;
  try {
    // The app is a bundle of its own (dist/ui/run-app.js), loaded by its path.
    ({ runApp } = await importModule<{ runApp: AppEntry }>(new URL('../ui/run-app.js', import.meta.url).href));
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
  return runApp(opts, info);
}
