/**
 * Claude Code's `DISABLE_PROMPT_CACHING` (every model) and `DISABLE_PROMPT_CACHING_HAIKU`, `_SONNET`,
 * `_OPUS`, `_FABLE` (one family): a request to such a model carries no `cache_control` marks at all,
 * for gateways that refuse them or accounts that should not pay for cache writes.
 */
import { envFlag } from '../base/env-number.js';

const FAMILIES = ['haiku', 'sonnet', 'opus', 'fable'] as const;

/** Whether requests to `model` go without cache marks. */
export function promptCachingOff(env: Record<string, string | undefined>, model: string): boolean {
  if (envFlag(env.DISABLE_PROMPT_CACHING)) return true;
  const id = model.toLowerCase();
  return FAMILIES.some((f) => id.includes(f) && envFlag(env[`DISABLE_PROMPT_CACHING_${f.toUpperCase()}`]));
}

/** A copy of the request body without any `cache_control` (system blocks, tools, message blocks). */
export function withoutCacheMarks<T extends { system?: unknown; tools?: unknown; messages?: unknown }>(body: T): T {
  return { ...body, system: strip(body.system), messages: strip(body.messages), ...(body.tools ? { tools: strip(body.tools) } : {}) };
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'cache_control') continue;
    // Only block lists are walked; a tool's input or schema is data and stays as it is.
    out[k] = k === 'content' ? strip(v) : v;
  }
  return out;
}
