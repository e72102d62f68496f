/**
 * The interactive app's entry. The app's code is not in the bundle print mode runs
 * (app-lib.ts), so print mode never reads or runs it. Ink decides once, when it loads, whether it runs
 * under CI (and then draws only the last frame); a person at a terminal gets the live app even when
 * CI is set in their environment.
 */
import { setFlagsFromString } from 'node:v8';
import type { AppEntry, CliOptions } from '../core/setup/options.js';
import { appLib } from './app-lib.js';

export async function runInteractive(opts: CliOptions, info: { version: string; saveCodeCache?: () => void }): Promise<number> {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  const atTerminal = process.stdout.isTTY === true && process.stdin.isTTY === true;
  if (atTerminal) {
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
  }
  let runApp: AppEntry;
  try {
    ({ runApp } = await appLib());
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
  let flagsSet = false;
  const firstFrame = () => {
    if (flagsSet) return;
    flagsSet = true;
    // The cache now holds what the first frame compiled; a cache written after the flags below
    // change would be rejected at the next start.
    info.saveCodeCache?.();
    // Frames allocate fast and die young: a small young generation and a heap that collects before it
    // grows keep peak memory flat, however long the transcript (the same flags as bench/tui.ts).
    setFlagsFromString('--max-semi-space-size=4');
    setFlagsFromString('--semi-space-growth-factor=2'); // V8's own: the entry held it at 1 for the start
    setFlagsFromString('--optimize-for-size');
  };
  try {
    return await runApp(opts, { version: info.version, firstFrame });
  } finally {
    firstFrame();
  }
}
