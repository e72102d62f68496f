/** What print mode and the SDK mode share at start-up: the stop for unreadable settings, the fallback models. */
import { chooseFallbackModels, fallbackLeftOut } from '../core/setup/model-choice.js';
import type { CliOptions } from '../core/setup/options.js';
import type { Setup } from '../core/setup/session-setup.js';
import { SettingsUnreadableError, stopMessage } from '../settings/problem.js';

/**
 * A settings file that cannot be read stops the run before anything runs (any output format, as
 * Claude Code does for a settings error it cannot go on from: stderr only): exit 2, each problem as
 * `file:line:column: what is wrong`, and how to go on.
 */
export function settingsStop(err: unknown): number | undefined {
  if (!(err instanceof SettingsUnreadableError)) return undefined;
  process.stderr.write(stopMessage(err.problems, err.sources));
  return 2;
}

/** The fallback models of print mode and the SDK mode (see chooseFallbackModels), with a warning for each left out. */
export function fallbackModels(opts: CliOptions, setup: Setup): string[] {
  const { models, leftOut } = chooseFallbackModels(opts.fallbackModel, setup.loaded.merged);
  for (const m of leftOut) process.stderr.write(`wicket: warning: ${fallbackLeftOut(m)}\n`);
  return models;
}
