/**
 * Which service a session's requests go to: Amazon Bedrock (CLAUDE_CODE_USE_BEDROCK), Google
 * Vertex AI (CLAUDE_CODE_USE_VERTEX), Microsoft Foundry (CLAUDE_CODE_USE_FOUNDRY), or Anthropic's
 * API, as in Claude Code and in that order when several are set. Read from the session's
 * environment, which a settings file's `env` adds to.
 */
import type { ProviderKind } from './models.js';

export const PROVIDER_ENV = {
  bedrock: 'CLAUDE_CODE_USE_BEDROCK',
  vertex: 'CLAUDE_CODE_USE_VERTEX',
  foundry: 'CLAUDE_CODE_USE_FOUNDRY',
} as const;

export const PROVIDER_NAMES: Record<ProviderKind, string> = {
  firstParty: 'Anthropic API',
  bedrock: 'Amazon Bedrock',
  vertex: 'Google Vertex AI',
  foundry: 'Microsoft Foundry',
};

export interface ProviderChoice {
  kind: ProviderKind;
  /** The variable that chose it. */
  via?: string;
  /** Other CLAUDE_CODE_USE_* variables that are set too, and so not followed. */
  ignored: string[];
}

/** 1, true, yes, on (any case), as Claude Code reads its switches. */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

export function chooseProvider(env: Record<string, string | undefined>): ProviderChoice {
  const set = (Object.keys(PROVIDER_ENV) as Array<keyof typeof PROVIDER_ENV>).filter((k) => isTruthy(env[PROVIDER_ENV[k]]));
  const [kind, ...rest] = set;
  if (!kind) return { kind: 'firstParty', ignored: [] };
  return { kind, via: PROVIDER_ENV[kind], ignored: rest.map((k) => PROVIDER_ENV[k]) };
}

/** The variables the clouds' own libraries read from the process itself (profiles, files, metadata endpoints). */
const CLOUD_VARIABLES = /^(AWS_|GOOGLE_|GCLOUD_|CLOUDSDK_|GCE_METADATA_|METADATA_SERVER_DETECTION$|NO_GCE_CHECK$|AZURE_|IDENTITY_|MSI_|IMDS_ENDPOINT$)/;

/**
 * The AWS, Google and Azure libraries read their variables (AWS_PROFILE, GOOGLE_APPLICATION_CREDENTIALS,
 * AZURE_CLIENT_ID…) from the process's environment: the values a settings file's `env` gives them
 * are put there, as Claude Code does with that key.
 */
export function exportCloudEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && CLOUD_VARIABLES.test(name) && process.env[name] !== value) process.env[name] = value;
  }
}
