/**
 * Microsoft Foundry (CLAUDE_CODE_USE_FOUNDRY=1), as Claude Code's docs describe it: the endpoint
 * from ANTHROPIC_FOUNDRY_RESOURCE (https://<resource>.services.ai.azure.com/anthropic/) or
 * ANTHROPIC_FOUNDRY_BASE_URL, the key from ANTHROPIC_FOUNDRY_API_KEY, else a Microsoft Entra ID
 * token (entra-credentials.ts), or none for a gateway that adds it (CLAUDE_CODE_SKIP_FOUNDRY_AUTH).
 * Model names are the resource's deployment names.
 */
import { APIError } from '@anthropic-ai/sdk/core/error';
import { FatalError } from '../../base/errors.js';
import type { ProviderDeps } from './bedrock.js';
import { isTruthy } from './choose.js';
import { EntraCredentials } from './entra-credentials.js';
import { foundryLib } from './foundry-lib.js';
import { asksLongContext, LONG_CONTEXT_BETA, providerModelId } from './models.js';
import { checkEndpoint, sdkClientOptions, sdkSend, type SdkClient } from './sdk-transport.js';
import { displayURL } from '../display-url.js';
import type { ModelTransport, TransportInfo } from '../transport.js';

export interface FoundryConfig {
  resource?: string;
  baseURL?: string;
  apiKey?: string;
  skipAuth: boolean;
}

export function foundryConfig(env: Record<string, string | undefined>): FoundryConfig {
  const resource = env.ANTHROPIC_FOUNDRY_RESOURCE?.trim();
  const baseURL = env.ANTHROPIC_FOUNDRY_BASE_URL?.trim();
  const apiKey = env.ANTHROPIC_FOUNDRY_API_KEY?.trim();
  return {
    ...(resource ? { resource } : {}),
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
    skipAuth: isTruthy(env.CLAUDE_CODE_SKIP_FOUNDRY_AUTH),
  };
}

/** The base URL: ANTHROPIC_FOUNDRY_BASE_URL, else the resource's; undefined when neither is set. */
export function foundryEndpoint(c: FoundryConfig): string | undefined {
  return c.baseURL || (c.resource ? `https://${c.resource}.services.ai.azure.com/anthropic/` : undefined);
}

export function foundryCredentialPlan(c: FoundryConfig): string {
  if (c.skipAuth) return 'none: CLAUDE_CODE_SKIP_FOUNDRY_AUTH (the gateway adds them)';
  if (c.apiKey) return 'ANTHROPIC_FOUNDRY_API_KEY';
  return 'Microsoft Entra ID (Azure default credential chain)';
}

export function foundryTransport(c: FoundryConfig, deps: ProviderDeps): ModelTransport {
  const endpoint = foundryEndpoint(c);
  if (!endpoint) throw new FatalError('config', 'Microsoft Foundry needs ANTHROPIC_FOUNDRY_RESOURCE (the name of your resource) or ANTHROPIC_FOUNDRY_BASE_URL');
  checkEndpoint(endpoint, c.baseURL ? 'ANTHROPIC_FOUNDRY_BASE_URL' : 'ANTHROPIC_FOUNDRY_RESOURCE');
  const { options, betas: customBetas } = sdkClientOptions(deps);
  let entra: EntraCredentials | undefined;
  let client: Promise<SdkClient> | undefined;
  const make = () =>
    foundryLib().then((parts) => {
      const auth = c.skipAuth
        ? // The client insists on a credential: a placeholder, whose header is taken out again.
          { apiKey: 'none', defaultHeaders: { ...options.defaultHeaders, 'x-api-key': null } }
        : c.apiKey
          ? { apiKey: c.apiKey }
          : { azureADTokenProvider: (entra ??= new EntraCredentials(parts)).provide };
      return new parts.AnthropicFoundry({ ...options, baseURL: endpoint, resource: null, ...auth } as never) as unknown as SdkClient;
    });
  return {
    async send(body, signal, betas) {
      client ??= make();
      const model = String(body.model);
      const extra = asksLongContext(model) ? [LONG_CONTEXT_BETA] : [];
      return sdkSend(await client, { ...body, model: providerModelId('foundry', model) }, signal, [...customBetas, ...betas, ...extra]);
    },
    async renewCredentials(err) {
      if (!entra || !(err instanceof APIError) || err.status !== 401) return false;
      entra.forget();
      return true;
    },
    describe: (): TransportInfo => ({
      provider: 'Microsoft Foundry',
      endpoint: displayURL(endpoint),
      credentials: entra ? entra.source : foundryCredentialPlan(c),
    }),
  };
}
