/**
 * The environment a hook runs with: the session's, settings `env` and CLAUDE_PROJECT_DIR; the effort
 * level as CLAUDE_EFFORT; and, for the events that may set variables for later Bash commands, a
 * CLAUDE_ENV_FILE of its own.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { HookEvent } from '../base/hook-config.js';

/** The environment hooks see: the session's, settings `env`, and CLAUDE_PROJECT_DIR. */
export function hookEnv(settingsEnv: Record<string, string>, ctx: { env: Record<string, string | undefined>; projectRoot: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...settingsEnv, CLAUDE_PROJECT_DIR: ctx.projectRoot };
}

/** CLAUDE_EFFORT: the level at the time the hook runs (/effort may change it). */
export function withEffort(env: Record<string, string>, ctx: { getEffort?: () => string | undefined }): Record<string, string> {
  const effort = ctx.getEffort?.();
  return effort ? { ...env, CLAUDE_EFFORT: effort } : env;
}

/** The events whose hooks may set variables for later Bash commands. */
const ENV_FILE_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'Setup', 'CwdChanged', 'FileChanged']);
let envFiles = 0;

/** CLAUDE_ENV_FILE: a file of its own for each such hook, in the session's folder (sourced by Bash, in order). */
export function withEnvFile(env: Record<string, string>, event: HookEvent, dir: string | undefined): Record<string, string> {
  if (!dir || !ENV_FILE_EVENTS.has(event)) return env;
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return env;
  }
  return { ...env, CLAUDE_ENV_FILE: path.join(dir, `${String(++envFiles).padStart(4, '0')}-${event}.sh`) };
}
