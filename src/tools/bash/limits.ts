/**
 * How long a Bash command may run and how much of its output the model reads, from Claude Code's
 * variables: `BASH_DEFAULT_TIMEOUT_MS` (default 2 minutes), `BASH_MAX_TIMEOUT_MS` (default 10 minutes;
 * never below the default) and `BASH_MAX_OUTPUT_LENGTH` (default 30,000 characters, at most 150,000),
 * which the `bashOutputMaxChars` setting replaces when set.
 */
import { positiveEnvNumber } from '../../base/env-number.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const MODEL_OUTPUT_LIMIT = 30_000;
export const OUTPUT_LIMIT_CAP = 150_000;

export interface BashLimits {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  /** Characters of output the model reads before the rest goes to a file. */
  outputChars: number;
}

export function bashLimits(env: Record<string, string | undefined> | undefined, settings?: Record<string, unknown>): BashLimits {
  const defaultTimeoutMs = Math.floor(positiveEnvNumber(env?.BASH_DEFAULT_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS);
  const maxTimeoutMs = Math.max(Math.floor(positiveEnvNumber(env?.BASH_MAX_TIMEOUT_MS) ?? MAX_TIMEOUT_MS), defaultTimeoutMs);
  const fromSetting = typeof settings?.bashOutputMaxChars === 'number' && settings.bashOutputMaxChars > 0 ? settings.bashOutputMaxChars : undefined;
  const chars = fromSetting ?? positiveEnvNumber(env?.BASH_MAX_OUTPUT_LENGTH) ?? MODEL_OUTPUT_LIMIT;
  return { defaultTimeoutMs, maxTimeoutMs, outputChars: Math.min(Math.floor(chars), OUTPUT_LIMIT_CAP) };
}

/** The timeout a call runs with: its own, within the maximum, or the default. */
export function callTimeout(requested: number | undefined, limits: BashLimits): number {
  if (requested === undefined || !Number.isFinite(requested)) return limits.defaultTimeoutMs;
  return Math.min(limits.maxTimeoutMs, Math.max(1, Math.floor(requested)));
}
