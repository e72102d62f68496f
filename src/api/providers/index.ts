/**
 * The cloud providers as a whole: which one the environment chooses, what the model aliases
 * stand for there, its transport, and the lines `wicket config` prints about it. Nothing here
 * loads a provider's SDK: that happens at its first request (bedrock-lib.ts, vertex-lib.ts,
 * foundry-lib.ts).
 */
import type { ModelAliases } from '../../base/models.js';
import { runAuthCommand } from '../auth-command.js';
import { displayURL } from '../display-url.js';
import type { ApiLimits } from '../limits.js';
import type { ModelTransport } from '../transport.js';
import { bedrockConfig, bedrockCredentialPlan, bedrockEndpoint, bedrockTransport, type CloudSettings } from './bedrock.js';
import { chooseProvider, exportCloudEnv, PROVIDER_NAMES, type ProviderChoice } from './choose.js';
import { foundryConfig, foundryCredentialPlan, foundryEndpoint, foundryTransport } from './foundry.js';
import { ALIAS_ENV, providerAliases } from './models.js';
import { vertexConfig, vertexCredentialPlan, vertexEndpoint, vertexTransport } from './vertex.js';

export { chooseProvider, PROVIDER_NAMES, type ProviderChoice } from './choose.js';
export { providerAliases, type ProviderKind } from './models.js';
export type { CloudSettings } from './bedrock.js';

/** How long a cloud's credential command may run: awsAuthRefresh may wait for a browser sign-in. */
const REFRESH_TIMEOUT_MS = 5 * 60_000;

export interface CloudDeps {
  env: Record<string, string | undefined>;
  settings: CloudSettings;
  cwd: string;
  limits?: Partial<ApiLimits>;
  userAgent?: string;
  headers?: Record<string, string>;
  smallModel?: string;
}

/** The transport of the cloud `choice` names (never Anthropic's API: model-client.ts makes that one). */
export function cloudTransport(choice: ProviderChoice, deps: CloudDeps): ModelTransport {
  exportCloudEnv(deps.env);
  const run = (setting: string, command: string, onOutput?: (line: string) => void) =>
    runAuthCommand(setting, command, { cwd: deps.cwd, env: deps.env, timeoutMs: REFRESH_TIMEOUT_MS, ...(onOutput ? { onOutput } : {}) });
  const common = { limits: deps.limits, userAgent: deps.userAgent, headers: deps.headers, smallModel: deps.smallModel, run };
  if (choice.kind === 'bedrock') return bedrockTransport(bedrockConfig(deps.env, deps.settings), common);
  if (choice.kind === 'vertex') return vertexTransport(vertexConfig(deps.env, deps.settings), common);
  return foundryTransport(foundryConfig(deps.env), common);
}

/**
 * What the provider variables and credential settings leave undone, one warning each: several
 * providers asked for at once, an apiKeyHelper a cloud does not use, a login method wicket has not.
 */
export function providerWarnings(choice: ProviderChoice, settings: { apiKeyHelper?: unknown; forceLoginMethod?: unknown }): string[] {
  const out: string[] = [];
  if (choice.ignored.length) {
    out.push(
      `${choice.via} chooses ${PROVIDER_NAMES[choice.kind]}; ${choice.ignored.join(' and ')} ${choice.ignored.length > 1 ? 'are' : 'is'} set too and not followed`,
    );
  }
  if (choice.kind !== 'firstParty' && typeof settings.apiKeyHelper === 'string' && settings.apiKeyHelper.trim()) {
    out.push(`apiKeyHelper is not used: the requests go to ${PROVIDER_NAMES[choice.kind]} (${choice.via}), with its own credentials`);
  }
  // "console" (API keys and their billing) is all wicket ever uses; a Claude.ai login it does not have.
  if (settings.forceLoginMethod === 'claudeai') {
    out.push('forceLoginMethod "claudeai" is not supported: wicket has no Claude.ai login; it uses ANTHROPIC_API_KEY, an apiKeyHelper or a cloud provider');
  }
  return out;
}

export interface ModelPlan {
  main: string;
  small: string;
  aliases: ModelAliases;
}

/**
 * What `wicket config` prints about the model service: the provider and why, its region and
 * endpoint, where the credentials will come from, and the model ids (the aliases', the main and
 * the small model).
 */
export function describeProvider(env: Record<string, string | undefined>, settings: CloudSettings & { apiKeyHelper?: string }, models: ModelPlan): string[] {
  const choice = chooseProvider(env);
  const lines = [`Model provider: ${PROVIDER_NAMES[choice.kind]}${choice.via ? ` (${choice.via})` : ''}`];
  const add = (label: string, value: string) => lines.push(`  ${label.padEnd(12)}${value}`);
  if (choice.kind === 'firstParty') {
    add('endpoint', displayURL(env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com'));
    const keys = [env.ANTHROPIC_AUTH_TOKEN && 'ANTHROPIC_AUTH_TOKEN', env.ANTHROPIC_API_KEY && 'ANTHROPIC_API_KEY'].filter(Boolean);
    add('credentials', keys.length ? keys.join(' and ') : settings.apiKeyHelper ? 'apiKeyHelper (settings)' : 'none: set ANTHROPIC_API_KEY');
  } else if (choice.kind === 'bedrock') {
    const c = bedrockConfig(env, settings);
    add('region', `${c.region} (${c.regionFrom})${c.smallModelRegion ? `; small model: ${c.smallModelRegion} (ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION)` : ''}`);
    add('endpoint', `${displayURL(bedrockEndpoint(c))}${c.baseURL ? ' (ANTHROPIC_BEDROCK_BASE_URL)' : ''}`);
    add('credentials', bedrockCredentialPlan(c));
  } else if (choice.kind === 'vertex') {
    const c = vertexConfig(env, settings);
    const own = Object.entries(c.modelRegions).map(([k, v]) => `${k}=${v}`);
    add('region', `${c.region} (${c.regionFrom})${own.length ? `; ${own.join(', ')}` : ''}`);
    add('project', c.projectId ? `${c.projectId} (ANTHROPIC_VERTEX_PROJECT_ID)` : "the credentials' own: set ANTHROPIC_VERTEX_PROJECT_ID");
    add('endpoint', `${displayURL(vertexEndpoint(c))}${c.baseURL ? ' (ANTHROPIC_VERTEX_BASE_URL)' : ''}`);
    add('credentials', vertexCredentialPlan(c));
  } else {
    const c = foundryConfig(env);
    const endpoint = foundryEndpoint(c);
    add(
      'endpoint',
      endpoint
        ? `${displayURL(endpoint)} (${c.baseURL ? 'ANTHROPIC_FOUNDRY_BASE_URL' : 'ANTHROPIC_FOUNDRY_RESOURCE'})`
        : 'none: set ANTHROPIC_FOUNDRY_RESOURCE',
    );
    add('credentials', foundryCredentialPlan(c));
  }
  add('models', `main ${models.main}, small ${models.small}`);
  const pinned = (family: keyof typeof ALIAS_ENV) => (env[ALIAS_ENV[family]]?.trim() ? ` (${ALIAS_ENV[family]})` : '');
  add(
    'aliases',
    `opus = ${models.aliases.opus}${pinned('opus')}, sonnet = ${models.aliases.sonnet}${pinned('sonnet')}, haiku = ${models.aliases.haiku}${pinned('haiku')}`,
  );
  return lines;
}

/** The aliases with this provider, and the session's default main and small models. */
export function modelPlan(env: Record<string, string | undefined>, model: string | undefined): ModelPlan {
  const aliases = providerAliases(chooseProvider(env).kind, env);
  const resolve = (name: string | undefined) => (name ? ((aliases as Record<string, string>)[name] ?? name) : undefined);
  return {
    aliases,
    main: resolve(model) ?? aliases.sonnet,
    small: resolve(env.ANTHROPIC_SMALL_FAST_MODEL?.trim()) ?? aliases.haiku,
  };
}
