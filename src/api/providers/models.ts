/**
 * Model ids on each provider. Anthropic's API, Bedrock, Vertex AI and Foundry name the same model
 * differently (`claude-sonnet-4-5-20250929`, `us.anthropic.claude-sonnet-4-5-20250929-v1:0`,
 * `claude-sonnet-4-5@20250929`, the deployment `claude-sonnet-4-5`), as Claude Code's table does. A
 * model wicket knows is sent under the provider's own id; any other name (a Bedrock ARN, an
 * inference profile, a Foundry deployment of another name) is sent as written.
 */
import { FIRST_PARTY_ALIASES, MODEL_FAMILIES, type ModelAliases } from '../../base/models.js';

export type ProviderKind = 'firstParty' | 'bedrock' | 'vertex' | 'foundry';

interface KnownModel {
  /** The names Anthropic's API takes: the short one first, then the dated one when there is one. */
  ids: readonly string[];
  bedrock: string;
  vertex: string;
  foundry: string;
  /** The variable that sends this model to its own Vertex region. */
  vertexRegionEnv: string;
}

/** One model: its short id, its dated one, its Bedrock and Vertex ids, and its Vertex region variable's suffix. */
function model(short: string, dated: string | undefined, bedrock: string, vertex: string, region: string): KnownModel {
  return { ids: dated ? [short, dated] : [short], bedrock, vertex, foundry: short, vertexRegionEnv: `VERTEX_REGION_CLAUDE_${region}` };
}

/** Same id everywhere (the newer models): Bedrock's is the US inference profile. */
function plain(id: string, region: string): KnownModel {
  return model(id, undefined, `us.anthropic.${id}`, id, region);
}

const KNOWN: readonly KnownModel[] = [
  model('claude-3-5-haiku', 'claude-3-5-haiku-20241022', 'us.anthropic.claude-3-5-haiku-20241022-v1:0', 'claude-3-5-haiku@20241022', '3_5_HAIKU'),
  model('claude-3-5-sonnet', 'claude-3-5-sonnet-20241022', 'us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet-v2@20241022', '3_5_SONNET'),
  model('claude-3-7-sonnet', 'claude-3-7-sonnet-20250219', 'us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'claude-3-7-sonnet@20250219', '3_7_SONNET'),
  model('claude-haiku-4-5', 'claude-haiku-4-5-20251001', 'us.anthropic.claude-haiku-4-5-20251001-v1:0', 'claude-haiku-4-5@20251001', 'HAIKU_4_5'),
  model('claude-opus-4', 'claude-opus-4-20250514', 'us.anthropic.claude-opus-4-20250514-v1:0', 'claude-opus-4@20250514', '4_0_OPUS'),
  model('claude-opus-4-1', 'claude-opus-4-1-20250805', 'us.anthropic.claude-opus-4-1-20250805-v1:0', 'claude-opus-4-1@20250805', '4_1_OPUS'),
  model('claude-opus-4-5', 'claude-opus-4-5-20251101', 'us.anthropic.claude-opus-4-5-20251101-v1:0', 'claude-opus-4-5@20251101', '4_5_OPUS'),
  model('claude-opus-4-6', undefined, 'us.anthropic.claude-opus-4-6-v1', 'claude-opus-4-6', '4_6_OPUS'),
  plain('claude-opus-4-7', '4_7_OPUS'),
  plain('claude-opus-4-8', '4_8_OPUS'),
  plain('claude-opus-5', '5_OPUS'),
  plain('claude-opus-5-5', '5_5_OPUS'),
  model('claude-sonnet-4', 'claude-sonnet-4-20250514', 'us.anthropic.claude-sonnet-4-20250514-v1:0', 'claude-sonnet-4@20250514', '4_0_SONNET'),
  model('claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5@20250929', '4_5_SONNET'),
  plain('claude-sonnet-4-6', '4_6_SONNET'),
  plain('claude-sonnet-5', '5_SONNET'),
  plain('claude-sonnet-5-5', '5_5_SONNET'),
  plain('claude-haiku-5-5', 'HAIKU_5_5'),
];

/** `claude-opus-4-0` and `claude-sonnet-4-0` are other names of the first Claude 4 models. */
const OTHER_NAMES: Record<string, string> = { 'claude-opus-4-0': 'claude-opus-4', 'claude-sonnet-4-0': 'claude-sonnet-4' };

/** What `[1m]` after a model's name asks for, on the providers: the long-context beta. */
export const LONG_CONTEXT_BETA = 'context-1m-2025-08-07';

/** The model `name` is, by any of its names on any provider (a `[1m]` suffix ignored). */
function knownModel(name: string): KnownModel | undefined {
  const bare = stripLongContext(name);
  const id = OTHER_NAMES[bare] ?? bare;
  return KNOWN.find((m) => m.ids.includes(id) || m.bedrock === id || m.vertex === id);
}

export function stripLongContext(name: string): string {
  return name.replace(/\[1m\]$/i, '');
}

export function asksLongContext(name: string): boolean {
  return /\[1m\]$/i.test(name);
}

/**
 * The id a request to `provider` carries for `name`: a model wicket knows under the provider's own id,
 * anything else as written. Anthropic's API gets the name as given.
 */
export function providerModelId(provider: ProviderKind, name: string): string {
  if (provider === 'firstParty') return name;
  const known = knownModel(name);
  return known ? known[provider] : stripLongContext(name);
}

/** The variable that sends this model to a Vertex region of its own (VERTEX_REGION_CLAUDE_4_5_SONNET…), when wicket knows it. */
export function vertexRegionEnv(name: string): string | undefined {
  return knownModel(name)?.vertexRegionEnv;
}

/**
 * What the aliases stand for on the clouds when nothing is pinned, as in Claude Code: a Sonnet and
 * an Opus every region offers, which may be older than the newest on Anthropic's API.
 */
const CLOUD_ALIASES = { sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-6', haiku: 'claude-haiku-4-5' } as const;

/** The alias variables, as Claude Code names them. */
export const ALIAS_ENV = { opus: 'ANTHROPIC_DEFAULT_OPUS_MODEL', sonnet: 'ANTHROPIC_DEFAULT_SONNET_MODEL', haiku: 'ANTHROPIC_DEFAULT_HAIKU_MODEL' } as const;

/**
 * What `opus`, `sonnet` and `haiku` stand for with this provider: its own ids of the default models,
 * unless ANTHROPIC_DEFAULT_OPUS_MODEL / _SONNET_ / _HAIKU_ pins one (a full id, used as written).
 */
export function providerAliases(provider: ProviderKind, env: Record<string, string | undefined>): ModelAliases {
  const out = {} as Record<(typeof MODEL_FAMILIES)[number], string>;
  for (const family of MODEL_FAMILIES) {
    const pinned = env[ALIAS_ENV[family]]?.trim();
    out[family] = pinned || (provider === 'firstParty' ? FIRST_PARTY_ALIASES[family] : providerModelId(provider, CLOUD_ALIASES[family]));
  }
  return out;
}
