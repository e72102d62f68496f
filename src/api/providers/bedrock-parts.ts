/**
 * What Amazon Bedrock needs from outside wicket: Anthropic's Bedrock client (SigV4 signing, the
 * event-stream framing) and the AWS credential providers. The entry of a bundle of its own
 * (build.mjs), loaded only when CLAUDE_CODE_USE_BEDROCK is set.
 */
export { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
export { createCredentialChain, fromEnv, fromNodeProviderChain } from '@aws-sdk/credential-providers';
