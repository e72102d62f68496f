/**
 * What Microsoft Foundry needs from outside wicket: Anthropic's Foundry client and Azure's default
 * credential chain for Microsoft Entra ID (with its members, to say which one answered). The entry
 * of a bundle of its own (build.mjs), loaded only when CLAUDE_CODE_USE_FOUNDRY is set.
 */
export { AnthropicFoundry } from '@anthropic-ai/foundry-sdk';
export {
  AzureCliCredential,
  AzureDeveloperCliCredential,
  AzurePowerShellCredential,
  DefaultAzureCredential,
  EnvironmentCredential,
  ManagedIdentityCredential,
  VisualStudioCodeCredential,
  WorkloadIdentityCredential,
} from '@azure/identity';
