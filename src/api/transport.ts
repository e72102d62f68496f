/**
 * Where a Messages request goes: Anthropic's API (or a server that speaks it, ANTHROPIC_BASE_URL),
 * or a cloud provider (providers/). The model client (model-client.ts) keeps its retries, fallbacks
 * and time limits in front of every transport; a transport only sends one request and, when the
 * request was refused for its credentials, says whether fresh ones are there to try.
 */
import { APIError } from '@anthropic-ai/sdk/core/error';
import { postMessagesStream, type TransportConfig } from './http-transport.js';
import { displayURL } from './display-url.js';
import type { ApiKeyHelper } from './key-helper.js';

export interface ModelTransport {
  /** Sends one streaming request; resolves with its decoded events once the response starts. */
  send(body: Record<string, unknown>, signal: AbortSignal, betas: readonly string[], onNotice: (text: string) => void): Promise<AsyncIterable<unknown>>;
  /**
   * The request failed with `err`: when that is a refusal of the credentials and new ones can be
   * had (the key helper run again, the cloud's refresh command), get them and resolve true.
   */
  renewCredentials?(err: unknown, signal: AbortSignal, onNotice: (text: string) => void): Promise<boolean>;
  /** Which service, region, models and credentials this session uses (/status). */
  describe(): TransportInfo;
}

export interface TransportInfo {
  /** "Anthropic API", "Amazon Bedrock", … */
  provider: string;
  /** Where requests go. */
  endpoint: string;
  region?: string;
  /** Where the credentials come from, as far as is known now. */
  credentials: string;
}

/** Anthropic's API (or ANTHROPIC_BASE_URL): a fixed key or token, or the apiKeyHelper's key. */
export function firstPartyTransport(config: TransportConfig, helper?: ApiKeyHelper): ModelTransport {
  helper?.start();
  return {
    async send(body, signal, betas) {
      if (!helper) return postMessagesStream(config, body, signal, betas);
      const key = await helper.key();
      return postMessagesStream({ ...config, apiKey: key, authToken: key }, body, signal, betas);
    },
    ...(helper
      ? {
          async renewCredentials(err: unknown) {
            if (!(err instanceof APIError) || err.status !== 401) return false;
            helper.invalidate();
            return true;
          },
        }
      : {}),
    describe: () => ({
      provider: 'Anthropic API',
      endpoint: displayURL(config.baseURL || 'https://api.anthropic.com'),
      credentials: helper
        ? helper.describe()
        : [config.authToken && 'ANTHROPIC_AUTH_TOKEN', config.apiKey && 'ANTHROPIC_API_KEY'].filter(Boolean).join(' and '),
    }),
  };
}
