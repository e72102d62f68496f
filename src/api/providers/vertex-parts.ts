/**
 * What Google Vertex AI needs from outside wicket: Anthropic's Vertex client and Google's
 * Application Default Credentials (with the kinds of client they can be, to say which was found).
 * The entry of a bundle of its own (build.mjs), loaded only when CLAUDE_CODE_USE_VERTEX is set.
 */
export { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
export { BaseExternalAccountClient, Compute, GoogleAuth, Impersonated, JWT, UserRefreshClient } from 'google-auth-library';
