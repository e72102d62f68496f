/**
 * The model knobs a session starts with: `CLAUDE_CODE_MAX_OUTPUT_TOKENS` (the requests' max_tokens)
 * and settings `availableModels` (the models anyone may pick: a session on another one does not
 * start, and fallback models outside the list are left out), and whether the provider offers the API's
 * web search (WebSearch).
 */
import { FatalError } from '../../base/errors.js';
import { chooseProvider } from '../../api/providers/choose.js';
import { positiveEnvNumber } from '../../base/env-number.js';
import { modelAllowed, modelDenied, resolveModel } from '../../base/models.js';

/** Claude Code's default for models it does not know, and its cap for them. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000;
export const MAX_OUTPUT_TOKENS_CAP = 128_000;

export function maxOutputTokens(env: Record<string, string | undefined>): number {
  const n = positiveEnvNumber(env.CLAUDE_CODE_MAX_OUTPUT_TOKENS);
  return n === undefined ? DEFAULT_MAX_OUTPUT_TOKENS : Math.min(Math.floor(n), MAX_OUTPUT_TOKENS_CAP);
}

/** Settings `availableModels` as a list, when it is one. */
export function availableModels(settings: Record<string, unknown>): string[] | undefined {
  const list = settings.availableModels;
  return Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : undefined;
}

/** Settings `deniedModels` (the managed policy's only: settings/load.ts keeps no other) as a list, when it is one. */
export function deniedModels(settings: Record<string, unknown>): string[] | undefined {
  const list = settings.deniedModels;
  return Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : undefined;
}

/** Throws when `model` is not one settings `availableModels` allows, or is one `deniedModels` blocks. */
export function requireAvailable(model: string, settings: Record<string, unknown>, what = 'the model'): void {
  if (modelDenied(model, deniedModels(settings)))
    throw new FatalError('config', `${what} ${model} is blocked by the managed policy's deniedModels: choose another with --model or ANTHROPIC_MODEL`);
  const list = availableModels(settings);
  if (modelAllowed(model, list)) return;
  throw new FatalError(
    'config',
    `${what} ${model} is not in settings availableModels (${list?.join(', ') || 'an empty list'}): choose one of those with --model or ANTHROPIC_MODEL, or ask whoever manages the settings`,
  );
}

/** Whether the provider has the API's server-side web search: not Amazon Bedrock. */
export function webSearchOffered(env: Record<string, string | undefined>): boolean {
  return chooseProvider(env).kind !== 'bedrock';
}

/**
 * --fallback-model (comma separated), else settings fallbackModel (a list, or the older single string):
 * where an overloaded model's requests go. Models settings availableModels does not allow are left
 * out (`leftOut`, for a warning).
 */
export function chooseFallbackModels(flag: string | undefined, settings: Record<string, unknown>): { models: string[]; leftOut: string[] } {
  const setting = settings.fallbackModel;
  const raw = flag ?? (Array.isArray(setting) ? setting.filter((m) => typeof m === 'string').join(',') : typeof setting === 'string' ? setting : '');
  const named = raw
    .split(',')
    .map((m) => resolveModel(m.trim()))
    .filter((m): m is string => Boolean(m));
  const list = availableModels(settings);
  const denied = deniedModels(settings);
  const ok = (m: string) => modelAllowed(m, list) && !modelDenied(m, denied);
  return { models: named.filter(ok), leftOut: named.filter((m) => !ok(m)) };
}

/** The warning for a fallback model settings availableModels does not allow. */
export const fallbackLeftOut = (model: string) => `fallback model ${model} is not in settings availableModels, or is in deniedModels; left out`;

/** WICKET_MAX_TOOL_CONCURRENCY or CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: how many calls run side by side (default 10). */
export function toolConcurrency(env: Record<string, string | undefined>): number {
  const n = Number(env.WICKET_MAX_TOOL_CONCURRENCY || env.CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY || 10);
  return Number.isInteger(n) && n > 0 ? n : 10;
}
