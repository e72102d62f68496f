/**
 * Google Vertex AI (CLAUDE_CODE_USE_VERTEX=1), as Claude Code's docs describe it: the project from
 * ANTHROPIC_VERTEX_PROJECT_ID (else the credentials'), the region from the model's own
 * VERTEX_REGION_* variable (VERTEX_REGION_CLAUDE_4_5_SONNET…), else CLOUD_ML_REGION, else
 * us-east5; the endpoint from ANTHROPIC_VERTEX_BASE_URL, else the region's; the credentials from
 * gcp-credentials.ts. Anthropic's Vertex client sends each request to the model's
 * `:streamRawPredict`.
 */
import { APIError } from '@anthropic-ai/sdk/core/error';
import type { CloudSettings, ProviderDeps } from './bedrock.js';
import { isTruthy } from './choose.js';
import { GcpCredentials } from './gcp-credentials.js';
import { asksLongContext, LONG_CONTEXT_BETA, providerModelId, vertexRegionEnv } from './models.js';
import { checkEndpoint, sdkClientOptions, sdkSend, type SdkClient } from './sdk-transport.js';
import { vertexLib } from './vertex-lib.js';
import { displayURL } from '../display-url.js';
import type { ModelTransport, TransportInfo } from '../transport.js';

export interface VertexConfig {
  region: string;
  regionFrom: string;
  /** VERTEX_REGION_* variables that are set. */
  modelRegions: Record<string, string>;
  projectId?: string;
  projectFromGoogle: boolean;
  keyFile?: string;
  baseURL?: string;
  skipAuth: boolean;
  gcpAuthRefresh?: string;
}

export const DEFAULT_VERTEX_REGION = 'us-east5';
/** The version Vertex's Messages requests carry in their body (the client keeps one the body has). */
const VERTEX_VERSION = 'vertex-2023-10-16';

export function vertexConfig(env: Record<string, string | undefined>, settings: CloudSettings): VertexConfig {
  const region = env.CLOUD_ML_REGION?.trim();
  const modelRegions = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('VERTEX_REGION_') && Boolean(e[1]?.trim())));
  const keyFile = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  return {
    region: region || DEFAULT_VERTEX_REGION,
    regionFrom: region ? 'CLOUD_ML_REGION' : 'the default: set CLOUD_ML_REGION',
    modelRegions,
    ...(env.ANTHROPIC_VERTEX_PROJECT_ID?.trim() ? { projectId: env.ANTHROPIC_VERTEX_PROJECT_ID.trim() } : {}),
    projectFromGoogle: Boolean(env.GCLOUD_PROJECT || env.GOOGLE_CLOUD_PROJECT || keyFile),
    ...(keyFile ? { keyFile } : {}),
    ...(env.ANTHROPIC_VERTEX_BASE_URL?.trim() ? { baseURL: env.ANTHROPIC_VERTEX_BASE_URL.trim() } : {}),
    skipAuth: isTruthy(env.CLAUDE_CODE_SKIP_VERTEX_AUTH),
    ...(settings.gcpAuthRefresh ? { gcpAuthRefresh: settings.gcpAuthRefresh } : {}),
  };
}

/** The model's own region variable when it is set, else the session's region. */
export function vertexRegionFor(c: VertexConfig, model: string): string {
  const own = vertexRegionEnv(model);
  return (own && c.modelRegions[own]?.trim()) || c.region;
}

export function vertexEndpoint(c: VertexConfig, region = c.region): string {
  if (c.baseURL) return c.baseURL;
  if (region === 'global') return 'https://aiplatform.googleapis.com/v1';
  if (region === 'us' || region === 'eu') return `https://aiplatform.${region}.rep.googleapis.com/v1`;
  return `https://${region}-aiplatform.googleapis.com/v1`;
}

export function vertexCredentialPlan(c: VertexConfig): string {
  if (c.skipAuth) return 'none: CLAUDE_CODE_SKIP_VERTEX_AUTH (the gateway adds them)';
  const adc = c.keyFile ? `Application Default Credentials from ${c.keyFile} (GOOGLE_APPLICATION_CREDENTIALS)` : 'Application Default Credentials';
  return `${adc}${c.gcpAuthRefresh ? ', gcpAuthRefresh when they are missing or refused' : ''}`;
}

export function vertexTransport(c: VertexConfig, deps: ProviderDeps): ModelTransport {
  checkEndpoint(vertexEndpoint(c), c.baseURL ? 'ANTHROPIC_VERTEX_BASE_URL' : 'CLOUD_ML_REGION');
  const { options, betas: customBetas } = sdkClientOptions(deps);
  const clients = new Map<string, Promise<SdkClient>>();
  let credentials: GcpCredentials | undefined;
  const clientFor = (region: string) => {
    let client = clients.get(region);
    if (!client) {
      client = vertexLib().then((parts) => {
        credentials ??= new GcpCredentials(parts, c, deps.run);
        return new parts.AnthropicVertex({
          ...options,
          region,
          projectId: c.projectId ?? null,
          baseURL: vertexEndpoint(c, region),
          authClient: credentials as never,
        }) as unknown as SdkClient;
      });
      clients.set(region, client);
    }
    return client;
  };
  return {
    async send(body, signal, betas, onNotice) {
      const model = String(body.model);
      const client = await clientFor(vertexRegionFor(c, model));
      if (credentials) credentials.notice = onNotice;
      const extra = asksLongContext(model) ? [LONG_CONTEXT_BETA] : [];
      const request = { ...body, model: providerModelId('vertex', model), anthropic_version: VERTEX_VERSION };
      return sdkSend(client, request, signal, [...customBetas, ...betas, ...extra]);
    },
    async renewCredentials(err, _signal, onNotice) {
      if (!credentials || !(err instanceof APIError) || err.status !== 401) return false;
      return credentials.renew(onNotice);
    },
    describe: (): TransportInfo => {
      const regions = Object.entries(c.modelRegions).map(([name, region]) => `${name}=${region}`);
      return {
        provider: 'Google Vertex AI',
        endpoint: displayURL(vertexEndpoint(c)),
        region: `${c.region}${regions.length ? ` (${regions.join(', ')})` : ''}`,
        credentials: credentials && credentials.source !== 'not looked for yet' ? credentials.source : vertexCredentialPlan(c),
      };
    },
  };
}
