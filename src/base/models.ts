/**
 * Model names and the effort level: the aliases people type, the defaults, and which models take
 * `output_config.effort` (the Messages API's effort parameter).
 */

export const DEFAULT_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_SMALL_MODEL = 'claude-haiku-4-5';

export const MODEL_FAMILIES = ['opus', 'sonnet', 'haiku'] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];
export type ModelAliases = Readonly<Record<ModelFamily, string>>;

/** What the aliases stand for on Anthropic's API. */
export const FIRST_PARTY_ALIASES: ModelAliases = { sonnet: DEFAULT_MODEL, opus: 'claude-opus-4-7', haiku: DEFAULT_SMALL_MODEL };

/**
 * What the aliases stand for in this process: the provider's own ids, with ANTHROPIC_DEFAULT_*_MODEL
 * over them (api/providers/models.ts). The session's setup sets them once; every later alias (a
 * flag, an agent's `model`, /model) resolves through them.
 */
let aliases: ModelAliases = FIRST_PARTY_ALIASES;

export function setModelAliases(next: ModelAliases): void {
  aliases = next;
}

export function modelAliases(): ModelAliases {
  return aliases;
}

/** An alias (sonnet, opus, haiku) as its model id in this session; anything else as given. */
export function resolveModel(name: string | undefined): string | undefined {
  if (!name) return undefined;
  return (MODEL_FAMILIES as readonly string[]).includes(name) ? aliases[name as ModelFamily] : name;
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
    return (MODEL_FAMILIES as readonly string[]).includes(e) && new RegExp(`(^|[-.])${e}([-.]|$)`).test(id);
  });
}

/**
 * Whether settings `deniedModels` blocks a model: a family alias blocks the family; an id blocks that
 * version in every spelling (a date, a suffix or a provider prefix around it), and an id without a
 * minor version the later minor versions too. An empty or missing list blocks nothing.
 */
export function modelDenied(model: string, denied: readonly string[] | undefined): boolean {
  if (!denied?.length) return false;
  const id = resolveModel(model) ?? model;
  if (modelAllowed(model, denied)) return true;
  return denied.some((entry) => {
    const e = entry.trim();
    if (!e.startsWith('claude-')) return false;
    return new RegExp(`(^|[.:/])${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[-@:])`).test(id);
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
