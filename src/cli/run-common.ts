/** What print mode and the SDK mode share at start-up: the stop for unreadable settings, the fallback models. */
import { modelAllowed, resolveModel } from '../base/models.js';
import { availableModels } from '../core/setup/model-choice.js';
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

/**
 * --fallback-model (comma separated), else settings fallbackModel (a list, or the older single string):
 * where an overloaded model's requests go. Models settings availableModels does not allow are left out.
 */
export function fallbackModels(opts: CliOptions, setup: Setup): string[] {
  const setting = setup.loaded.merged.fallbackModel;
  const raw =
    opts.fallbackModel ?? (Array.isArray(setting) ? setting.filter((m) => typeof m === 'string').join(',') : typeof setting === 'string' ? setting : '');
  const models = raw
    .split(',')
    .map((m) => resolveModel(m.trim()))
    .filter((m): m is string => Boolean(m));
  const list = availableModels(setup.loaded.merged);
  for (const m of models.filter((m) => !modelAllowed(m, list)))
    process.stderr.write(`wicket: warning: fallback model ${m} is not in settings availableModels; left out\n`);
  return models.filter((m) => modelAllowed(m, list));
}
