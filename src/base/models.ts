/**
 * Model names and the effort level: the aliases people type, the defaults, and which models take
 * `output_config.effort` (the Messages API's effort parameter).
 */

export const DEFAULT_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_SMALL_MODEL = 'claude-haiku-4-5';

const ALIASES: Record<string, string> = {
  sonnet: 'claude-sonnet-4-6',
  opus: 'claude-opus-4-7',
  haiku: 'claude-haiku-4-5',
};

/** `ANTHROPIC_DEFAULT_OPUS_MODEL` and its siblings: what each alias stands for in this session. */
let pinned: Record<string, string> = {};

const PIN_VARS: Record<string, string> = {
  opus: 'ANTHROPIC_DEFAULT_OPUS_MODEL',
  sonnet: 'ANTHROPIC_DEFAULT_SONNET_MODEL',
  haiku: 'ANTHROPIC_DEFAULT_HAIKU_MODEL',
};

/** Pins the aliases to the model ids the environment names (set up once per session). */
export function pinModelAliases(env: Record<string, string | undefined>): void {
  pinned = {};
  for (const [alias, name] of Object.entries(PIN_VARS)) {
    const id = env[name]?.trim();
    if (id) pinned[alias] = id;
  }
}

/** An alias (sonnet, opus, haiku) as its model id (a pinned one first); anything else as given. */
export function resolveModel(name: string | undefined): string | undefined {
  if (!name) return undefined;
  return pinned[name] ?? ALIASES[name] ?? name;
}

/**
 * Settings `availableModels`: whether `model` may be used. An entry is an alias or a model id; an
 * alias allows what it resolves to, and a family name (`opus`) also allows that family's other ids.
 */
export function modelAllowed(model: string, available: readonly string[] | undefined): boolean {
  if (!available) return true;
  const id = resolveModel(model) ?? model;
  return available.some((entry) => {
    const e = entry.trim();
    if (e === model || e === id || resolveModel(e) === id) return true;
    return e in ALIASES && new RegExp(`(^|[-.])${e}([-.]|$)`).test(id);
  });
}

export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORT_LEVELS)[number];

/** A level as written in a flag, setting, variable or front matter; 'auto' means the model's default. */
export function parseEffort(value: unknown): Effort | 'auto' | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'auto') return 'auto';
  return (EFFORT_LEVELS as readonly string[]).includes(v) ? (v as Effort) : undefined;
}

/** The first level set, in the order given; 'auto' there stops the search (the model decides). */
export function pickEffort(...candidates: unknown[]): Effort | undefined {
  for (const c of candidates) {
    const e = parseEffort(c);
    if (e) return e === 'auto' ? undefined : e;
  }
  return undefined;
}

/** Models from before the effort parameter: the API refuses the field for them. */
const NO_EFFORT = /claude-3|claude-(?:opus|sonnet)-4(?:-[01])?(?:-\d{8})?$|claude-(?:opus|sonnet)-4-(?:0|1)-|claude-(?:sonnet|haiku)-4-5/;

/** Whether a request to this model may carry an effort level (unknown models are trusted to). */
export function modelTakesEffort(model: string): boolean {
  return !NO_EFFORT.test(model);
}

/** The effort a request carries: the session's level when its model takes one. */
export function effortFor(o: { model: string; effort?: Effort }): Effort | undefined {
  return o.effort && modelTakesEffort(o.model) ? o.effort : undefined;
}

/** The model's context window in tokens: 1M for `[1m]` models, 200k otherwise. */
export function contextWindowOf(model: string): number {
  return /\[1m\]$/i.test(model) ? 1_000_000 : 200_000;
}
