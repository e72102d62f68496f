/**
 * The session's model client from its environment and settings: which service (Anthropic's API,
 * Bedrock, Vertex AI, Foundry), what the model aliases stand for there, and the credentials
 * (a key or token, the apiKeyHelper, a cloud's own). Also sets the process's aliases, so that a
 * later `opus` (a flag, an agent's `model`, /model) names the provider's model.
 */
import { apiLimitsFromEnv } from '../../api/limits.js';
import { ApiKeyHelper } from '../../api/key-helper.js';
import { createModelClient, type ModelClient } from '../../api/model-client.js';
import { chooseProvider, cloudTransport, providerAliases, providerWarnings, type ProviderChoice } from '../../api/providers/index.js';
import { promptCachingOff } from '../../api/prompt-caching.js';
import { retryPolicyFromEnv } from '../../api/retry.js';
import { setModelAliases, type ModelAliases } from '../../base/models.js';
import { VERSION } from '../../base/version.js';

/** The settings keys the model client reads. */
export interface ClientSettings {
  apiKeyHelper?: unknown;
  forceLoginMethod?: unknown;
  awsAuthRefresh?: unknown;
  awsCredentialExport?: unknown;
  gcpAuthRefresh?: unknown;
}

export interface ProviderPlan {
  choice: ProviderChoice;
  aliases: ModelAliases;
  warnings: string[];
}

/** The provider the environment chooses and its aliases, which from now on every alias resolves to. */
export function useProvider(env: Record<string, string | undefined>, settings: ClientSettings): ProviderPlan {
  const choice = chooseProvider(env);
  const aliases = providerAliases(choice.kind, env);
  setModelAliases(aliases);
  return { choice, aliases, warnings: providerWarnings(choice, settings) };
}

export function clientFromEnv(
  env: Record<string, string | undefined>,
  settings: ClientSettings,
  ctx: { choice: ProviderChoice; cwd: string; smallModel: string; betas?: readonly string[] },
): ModelClient {
  const custom = parseCustomHeaders(env.ANTHROPIC_CUSTOM_HEADERS);
  const common = {
    retry: retryPolicyFromEnv(env),
    // API_TIMEOUT_MS and WICKET_API_IDLE_TIMEOUT_MS; a value that is not a positive number keeps the default.
    limits: apiLimitsFromEnv(env),
    userAgent: userAgent(env),
    headers: custom,
    // DISABLE_PROMPT_CACHING and its per-model siblings.
    cachingOff: (model: string) => promptCachingOff(env, model),
  };
  if (ctx.choice.kind !== 'firstParty') {
    const cloud = {
      awsAuthRefresh: text(settings.awsAuthRefresh),
      awsCredentialExport: text(settings.awsCredentialExport),
      gcpAuthRefresh: text(settings.gcpAuthRefresh),
    };
    const transport = cloudTransport(ctx.choice, {
      env,
      settings: cloud,
      cwd: ctx.cwd,
      limits: common.limits,
      userAgent: common.userAgent,
      headers: common.headers,
      smallModel: ctx.smallModel,
    });
    return createModelClient({ ...common, transport });
  }
  const helper = text(settings.apiKeyHelper);
  return createModelClient({
    ...common,
    headers: withBetas(custom, ctx.betas),
    apiKey: env.ANTHROPIC_API_KEY || undefined,
    authToken: env.ANTHROPIC_AUTH_TOKEN || undefined,
    baseURL: env.ANTHROPIC_BASE_URL || undefined,
    ...(helper ? { keyHelper: new ApiKeyHelper(helper, { cwd: ctx.cwd, env }) } : {}),
  });
}

/** --betas go out as `anthropic-beta` on every request to Anthropic's API, beside those of ANTHROPIC_CUSTOM_HEADERS. */
function withBetas(headers: Record<string, string> | undefined, betas: readonly string[] | undefined): Record<string, string> | undefined {
  if (!betas?.length) return headers;
  const all = [...(headers?.['anthropic-beta']?.split(',') ?? []), ...betas].map((b) => b.trim()).filter(Boolean);
  return { ...headers, 'anthropic-beta': [...new Set(all)].join(',') };
}

/** What wicket says of --betas it does not send: a cloud provider's requests carry none. */
export function betasWarning(choice: ProviderChoice, betas: readonly string[] | undefined): string | undefined {
  if (!betas?.length || choice.kind === 'firstParty') return undefined;
  return `--betas ${betas.join(',')}: beta headers go to Anthropic's API only; the requests to this provider (${choice.kind}) do not carry them`;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}

/** ANTHROPIC_CUSTOM_HEADERS: one `Name: Value` per line, as in Claude Code. Lines without a name are skipped. */
export function parseCustomHeaders(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) out[name.toLowerCase()] = line.slice(colon + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * `wicket/<version>`, and, for a program that drives wicket, what Claude Code names after its own:
 * the entry point, the Agent SDK's version and the program's CLAUDE_AGENT_SDK_CLIENT_APP.
 */
export function userAgent(env: Record<string, string | undefined>): string {
  const clean = (v: string | undefined) => v?.replace(/[^\x20-\x7e]/g, '').trim() || undefined;
  const entry = clean(env.CLAUDE_CODE_ENTRYPOINT);
  const sdk = clean(env.CLAUDE_AGENT_SDK_VERSION);
  const app = clean(env.CLAUDE_AGENT_SDK_CLIENT_APP);
  const parts = [entry, sdk && `agent-sdk/${sdk}`, app && `client-app/${app}`].filter(Boolean);
  return parts.length ? `wicket/${VERSION} (${parts.join(', ')})` : `wicket/${VERSION}`;
}
