/**
 * Amazon Bedrock (CLAUDE_CODE_USE_BEDROCK=1), as Claude Code's docs describe it: the region from
 * AWS_REGION (else AWS_DEFAULT_REGION, else us-east-1; ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION for
 * the small model), the endpoint from ANTHROPIC_BEDROCK_BASE_URL (else the region's
 * bedrock-runtime), and requests signed with SigV4 (aws-credentials.ts), or carrying a Bedrock API
 * key (AWS_BEARER_TOKEN_BEDROCK), or nothing at all for a gateway that signs them itself
 * (CLAUDE_CODE_SKIP_BEDROCK_AUTH). Anthropic's Bedrock client turns each request into
 * `invoke-with-response-stream` and its event-stream answer back into the Messages events.
 */
import { APIError } from '@anthropic-ai/sdk/core/error';
import { AwsCredentials, type RunCommand } from './aws-credentials.js';
import { bedrockLib } from './bedrock-lib.js';
import { isTruthy } from './choose.js';
import { asksLongContext, LONG_CONTEXT_BETA, providerModelId } from './models.js';
import { checkEndpoint, sdkClientOptions, sdkSend, type SdkClient, type SdkCommon } from './sdk-transport.js';
import { displayURL } from '../display-url.js';
import type { ModelTransport, TransportInfo } from '../transport.js';

/** The version Bedrock's Messages requests carry in their body (the client keeps one the body has). */
const BEDROCK_VERSION = 'bedrock-2023-05-31';

export interface BedrockConfig {
  region: string;
  /** Where the region came from: AWS_REGION, AWS_DEFAULT_REGION, or the default. */
  regionFrom: string;
  /** ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION. */
  smallModelRegion?: string;
  baseURL?: string;
  bearerToken?: string;
  skipAuth: boolean;
  profile?: string;
  awsAuthRefresh?: string;
  awsCredentialExport?: string;
}

export interface CloudSettings {
  awsAuthRefresh?: string;
  awsCredentialExport?: string;
  gcpAuthRefresh?: string;
}

export function bedrockConfig(env: Record<string, string | undefined>, settings: CloudSettings): BedrockConfig {
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim();
  const small = env.ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION?.trim();
  const baseURL = env.ANTHROPIC_BEDROCK_BASE_URL?.trim();
  const bearer = env.AWS_BEARER_TOKEN_BEDROCK?.trim();
  return {
    region: region || 'us-east-1',
    regionFrom: env.AWS_REGION?.trim() ? 'AWS_REGION' : region ? 'AWS_DEFAULT_REGION' : 'the default: set AWS_REGION',
    ...(small ? { smallModelRegion: small } : {}),
    ...(baseURL ? { baseURL } : {}),
    ...(bearer ? { bearerToken: bearer } : {}),
    skipAuth: isTruthy(env.CLAUDE_CODE_SKIP_BEDROCK_AUTH),
    ...(env.AWS_PROFILE?.trim() ? { profile: env.AWS_PROFILE.trim() } : {}),
    ...(settings.awsAuthRefresh ? { awsAuthRefresh: settings.awsAuthRefresh } : {}),
    ...(settings.awsCredentialExport ? { awsCredentialExport: settings.awsCredentialExport } : {}),
  };
}

export function bedrockEndpoint(c: BedrockConfig, region = c.region): string {
  return c.baseURL || `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** Where the credentials come from, before any is looked for (`wicket config`). */
export function bedrockCredentialPlan(c: BedrockConfig): string {
  if (c.skipAuth) return 'none: CLAUDE_CODE_SKIP_BEDROCK_AUTH (the gateway signs the requests)';
  if (c.bearerToken) return 'a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK)';
  if (c.awsCredentialExport) return `awsCredentialExport${c.awsAuthRefresh ? ', awsAuthRefresh when they expire' : ''}`;
  const chain = c.profile
    ? `AWS profile "${c.profile}" (AWS_PROFILE)`
    : 'the AWS credential chain (AWS_ACCESS_KEY_ID…, default profile, SSO, container or instance metadata)';
  return `${chain}${c.awsAuthRefresh ? ', awsAuthRefresh when they are missing or expire' : ''}`;
}

export interface ProviderDeps extends SdkCommon {
  /** The session's small model, which ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION sends elsewhere. */
  smallModel?: string;
  run: RunCommand;
}

export function bedrockTransport(c: BedrockConfig, deps: ProviderDeps): ModelTransport {
  checkEndpoint(bedrockEndpoint(c), c.baseURL ? 'ANTHROPIC_BEDROCK_BASE_URL' : 'AWS_REGION');
  const { options, betas: customBetas } = sdkClientOptions(deps);
  const clients = new Map<string, Promise<SdkClient>>();
  let credentials: AwsCredentials | undefined;
  let notice: (text: string) => void = () => {};
  const signs = !c.skipAuth && !c.bearerToken;
  const clientFor = (region: string) => {
    let client = clients.get(region);
    if (!client) {
      client = bedrockLib().then((parts) => {
        if (signs) credentials ??= new AwsCredentials(parts, c, deps.run);
        const creds = credentials;
        return new parts.AnthropicBedrock({
          ...options,
          awsRegion: region,
          baseURL: bedrockEndpoint(c, region),
          apiKey: c.bearerToken ?? null,
          skipAuth: c.skipAuth,
          ...(creds ? { providerChainResolver: async () => () => creds.get(notice) } : {}),
        }) as unknown as SdkClient;
      });
      clients.set(region, client);
    }
    return client;
  };
  return {
    async send(body, signal, betas, onNotice) {
      notice = onNotice;
      const model = String(body.model);
      const region = c.smallModelRegion && model === deps.smallModel ? c.smallModelRegion : c.region;
      const extra = asksLongContext(model) ? [LONG_CONTEXT_BETA] : [];
      const request = { ...body, model: providerModelId('bedrock', model), anthropic_version: BEDROCK_VERSION };
      return sdkSend(await clientFor(region), request, signal, [...customBetas, ...betas, ...extra]);
    },
    async renewCredentials(err, _signal, onNotice) {
      if (!credentials || !isExpiredCredentials(err)) return false;
      return credentials.renew(onNotice);
    },
    describe: (): TransportInfo => ({
      provider: 'Amazon Bedrock',
      endpoint: displayURL(bedrockEndpoint(c)),
      region: `${c.region}${c.smallModelRegion ? ` (small model: ${c.smallModelRegion})` : ''}`,
      credentials: credentials && signs ? `${credentials.source}${c.awsAuthRefresh ? ', awsAuthRefresh when they expire' : ''}` : bedrockCredentialPlan(c),
    }),
  };
}

/** Bedrock's answer to expired or unknown credentials (a 403 with one of these types). */
function isExpiredCredentials(err: unknown): boolean {
  if (!(err instanceof APIError) || (err.status !== 403 && err.status !== 401)) return false;
  const text = `${err.type ?? ''} ${err.apiMessage ?? err.message}`;
  return /ExpiredToken|UnrecognizedClient|InvalidClientTokenId|security token included in the request is (expired|invalid)/i.test(text);
}
