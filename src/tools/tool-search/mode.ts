/**
 * Whether tool search is on, as Claude Code decides it from ENABLE_TOOL_SEARCH:
 *   unset, `true`, `auto:0`  → on: MCP tools wait for ToolSearch
 *   `auto`, `auto:N`         → on only when the deferrable tools' definitions take N% (default 10)
 *                              of the model's context window or more
 *   `false`, `auto:100`      → off: every tool is sent in full, and ToolSearch is not offered
 * Unset, a gateway (an ANTHROPIC_BASE_URL other than api.anthropic.com) or a cloud provider
 * (Bedrock, Vertex AI, Foundry) turns it off: it may not understand `defer_loading` and
 * `tool_reference`; setting the variable turns it on there too.
 * CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS turns it off, and so do models older than Claude 4.
 */
import { chooseProvider } from '../../api/providers/choose.js';
import { contextWindowOf } from '../../base/models.js';
import type { Tool } from '../../base/tool.js';

export const TOOL_SEARCH = 'ToolSearch';

/** The beta the API needs for `defer_loading` and `tool_reference`. */
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

export type ToolSearchMode = { kind: 'on' } | { kind: 'off' } | { kind: 'auto'; percent: number };

const DEFAULT_AUTO_PERCENT = 10;
/** Characters per token of a tool definition (name, description, schema), as Claude Code estimates it. */
const CHARS_PER_TOKEN = 2.5;

type Env = Record<string, string | undefined>;

const truthy = (v: string) => ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
const falsy = (v: string) => ['0', 'false', 'no', 'off'].includes(v.toLowerCase());

export function toolSearchMode(env: Env): ToolSearchMode {
  const disabled = env.CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS?.trim();
  if (disabled && truthy(disabled)) return { kind: 'off' };
  const value = env.ENABLE_TOOL_SEARCH?.trim() ?? '';
  if (!value) return chooseProvider(env).kind === 'firstParty' && isFirstPartyBaseURL(env.ANTHROPIC_BASE_URL) ? { kind: 'on' } : { kind: 'off' };
  if (value.toLowerCase() === 'auto') return { kind: 'auto', percent: DEFAULT_AUTO_PERCENT };
  const auto = /^auto:(.*)$/i.exec(value);
  if (auto) {
    const n = Number.parseInt(auto[1]!, 10);
    if (Number.isNaN(n)) return { kind: 'auto', percent: DEFAULT_AUTO_PERCENT };
    const percent = Math.max(0, Math.min(100, n));
    return percent === 0 ? { kind: 'on' } : percent === 100 ? { kind: 'off' } : { kind: 'auto', percent };
  }
  if (falsy(value)) return { kind: 'off' };
  return { kind: 'on' };
}

/** No base URL, or one on api.anthropic.com. */
export function isFirstPartyBaseURL(baseURL: string | undefined): boolean {
  if (!baseURL?.trim()) return true;
  try {
    return new URL(baseURL).host === 'api.anthropic.com';
  } catch {
    return false;
  }
}

/** Deferred when tool search is on: MCP tools unless their server asked for them to be loaded always. */
export function isDeferred(tool: Tool): boolean {
  return tool.shouldDefer === true && tool.name !== TOOL_SEARCH;
}

/** Models that cannot take `tool_reference` blocks: Claude 3 and older. */
function supportsToolReference(model: string): boolean {
  return !/(^|[/.])claude-(instant|[123])([-.@]|$)/i.test(model);
}

export interface ToolSearchInputs {
  env: Env;
  model: string;
  tools: readonly Tool[];
  /** The size in characters of one tool's definition as sent (name + description + JSON Schema). */
  definitionChars: (tool: Tool) => number;
}

/** Whether this request defers its deferrable tools (and offers ToolSearch). */
export function toolSearchOn(inputs: ToolSearchInputs): boolean {
  const { env, model, tools } = inputs;
  const mode = toolSearchMode(env);
  if (mode.kind === 'off') return false;
  if (!tools.some((t) => t.name === TOOL_SEARCH)) return false;
  if (!supportsToolReference(model)) return false;
  const deferred = tools.filter(isDeferred);
  if (!deferred.length) return false;
  if (mode.kind === 'on') return true;
  const threshold = Math.floor(Math.floor((contextWindowOf(model) * mode.percent) / 100) * CHARS_PER_TOKEN);
  const chars = deferred.reduce((sum, t) => sum + inputs.definitionChars(t), 0);
  return chars >= threshold;
}
