/**
 * The AWS credentials a Bedrock request is signed with, as Claude Code finds them:
 *
 * - `awsCredentialExport` (settings): a command that prints `{"Credentials": {"AccessKeyId",
 *   "SecretAccessKey", "SessionToken", "Expiration"?}}`, run silently;
 * - else the AWS SDK's own chain: AWS_ACCESS_KEY_ID…, then AWS_PROFILE's (or the default) profile
 *   in ~/.aws/credentials and ~/.aws/config (SSO, credential_process, roles), web identity, the
 *   container credentials endpoint, the instance metadata.
 *
 * Credentials are kept until five minutes before they expire. When none can be found, when they
 * have expired, or when Bedrock refuses them as expired, `awsAuthRefresh` (settings; a command that
 * updates ~/.aws, such as `aws sso login`, whose output is shown) runs, and they are looked for
 * again. No credentials at all is a FatalError that says where they were looked for.
 */
import { FatalError, errorMessage } from '../../base/errors.js';
import type { bedrockLib } from './bedrock-lib.js';

type Parts = Awaited<ReturnType<typeof bedrockLib>>;

export interface AwsIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
  /** The AWS SDK's note of the provider that found them. */
  $source?: Record<string, string>;
}

export interface AwsCredentialSettings {
  awsAuthRefresh?: string;
  awsCredentialExport?: string;
  /** AWS_PROFILE, for messages. */
  profile?: string;
}

/** Runs one of the settings' credential commands; `onOutput` sees its lines as they come. */
export type RunCommand = (setting: string, command: string, onOutput?: (line: string) => void) => Promise<string>;

/** Credentials this close to their expiry are looked for again. */
const EARLY_MS = 5 * 60_000;

export class AwsCredentials {
  private cached: AwsIdentity | undefined;
  private pending: Promise<AwsIdentity> | undefined;
  private fresh = false;
  /** Where the last credentials came from, for /status. */
  source = 'not looked for yet';

  constructor(
    private readonly parts: Parts,
    private readonly settings: AwsCredentialSettings,
    private readonly run: RunCommand,
    private readonly now: () => number = Date.now,
  ) {}

  /** The credentials to sign with; `onNotice` shows awsAuthRefresh's output. */
  get(onNotice: (text: string) => void): Promise<AwsIdentity> {
    if (this.cached && !expiresSoon(this.cached, this.now())) return Promise.resolve(this.cached);
    this.pending ??= this.find(onNotice).finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Bedrock refused the credentials as expired or unknown: true when looking again may find others. */
  async renew(onNotice: (text: string) => void): Promise<boolean> {
    const temporary = this.cached?.expiration !== undefined;
    this.cached = undefined;
    if (this.settings.awsAuthRefresh) await this.refresh(onNotice);
    return temporary || Boolean(this.settings.awsAuthRefresh || this.settings.awsCredentialExport);
  }

  private async find(onNotice: (text: string) => void): Promise<AwsIdentity> {
    let found = await this.lookUp().catch((err: unknown) => err as Error);
    const unusable = found instanceof Error || isExpired(found, this.now());
    if (unusable && this.settings.awsAuthRefresh) {
      await this.refresh(onNotice);
      found = await this.lookUp().catch((err: unknown) => err as Error);
    }
    if (found instanceof Error) throw found instanceof FatalError ? found : this.none(found);
    if (isExpired(found, this.now())) {
      throw new FatalError(
        'auth',
        `the AWS credentials from ${this.source} expired at ${found.expiration?.toISOString()}: renew them, or set awsAuthRefresh in the settings`,
      );
    }
    this.cached = found;
    return found;
  }

  private async lookUp(): Promise<AwsIdentity> {
    if (this.settings.awsCredentialExport) {
      const out = await this.run('awsCredentialExport', this.settings.awsCredentialExport);
      this.source = 'awsCredentialExport';
      return parseExported(out);
    }
    // After awsAuthRefresh the profile files are read again, not taken from the SDK's cache.
    const { createCredentialChain, fromEnv, fromNodeProviderChain } = this.parts;
    const chain = createCredentialChain(fromEnv(), fromNodeProviderChain(this.fresh ? { ignoreCache: true } : {}));
    const found = (await chain()) as AwsIdentity;
    this.source = describeSource(found, this.settings.profile);
    return found;
  }

  private async refresh(onNotice: (text: string) => void): Promise<void> {
    await this.run('awsAuthRefresh', this.settings.awsAuthRefresh ?? '', (line) => onNotice(`awsAuthRefresh: ${line}`));
    this.fresh = true;
  }

  private none(err: Error): FatalError {
    const where = this.settings.profile
      ? `the AWS profile "${this.settings.profile}"`
      : 'the AWS credential chain (AWS_ACCESS_KEY_ID…, AWS_PROFILE, ~/.aws, SSO, container and instance metadata)';
    return new FatalError(
      'auth',
      `no AWS credentials for Bedrock from ${where}: ${errorMessage(err).replace(/\.+$/, '')}. Sign in (aws sso login, aws configure), set AWS_BEARER_TOKEN_BEDROCK, or set awsAuthRefresh or awsCredentialExport in the settings`,
    );
  }
}

function expiresSoon(c: AwsIdentity, now: number): boolean {
  return c.expiration !== undefined && c.expiration.getTime() - EARLY_MS <= now;
}

function isExpired(c: AwsIdentity, now: number): boolean {
  return c.expiration !== undefined && c.expiration.getTime() <= now;
}

/** awsCredentialExport's output: the JSON of `aws sts assume-role` and the like. */
export function parseExported(text: string): AwsIdentity {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FatalError(
      'auth',
      'awsCredentialExport did not print JSON: it must print {"Credentials": {"AccessKeyId": …, "SecretAccessKey": …, "SessionToken": …}}',
    );
  }
  const c = (parsed as { Credentials?: Record<string, unknown> } | null)?.Credentials;
  if (!c || typeof c.AccessKeyId !== 'string' || typeof c.SecretAccessKey !== 'string') {
    throw new FatalError('auth', 'awsCredentialExport printed no Credentials.AccessKeyId and Credentials.SecretAccessKey');
  }
  const expiration = typeof c.Expiration === 'string' || typeof c.Expiration === 'number' ? new Date(c.Expiration) : undefined;
  return {
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.SecretAccessKey,
    ...(typeof c.SessionToken === 'string' ? { sessionToken: c.SessionToken } : {}),
    ...(expiration && !Number.isNaN(expiration.getTime()) ? { expiration } : {}),
  };
}

/** Where the AWS SDK found the credentials, from the note it leaves on them. */
function describeSource(c: AwsIdentity, profile: string | undefined): string {
  const notes = Object.keys(c.$source ?? {});
  const has = (prefix: string) => notes.some((n) => n.startsWith(prefix));
  const named = `profile "${profile || 'default'}"`;
  if (has('CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN') || has('CREDENTIALS_PROFILE_STS_WEB_ID_TOKEN')) return 'a web identity token (AWS_WEB_IDENTITY_TOKEN_FILE)';
  if (has('CREDENTIALS_ENV_VARS')) return 'the environment (AWS_ACCESS_KEY_ID)';
  if (has('CREDENTIALS_PROFILE_SSO') || has('CREDENTIALS_SSO')) return `${named} (AWS SSO)`;
  if (has('CREDENTIALS_PROFILE_PROCESS') || has('CREDENTIALS_PROCESS')) return `${named} (credential_process)`;
  if (has('CREDENTIALS_PROFILE_SOURCE_PROFILE') || has('CREDENTIALS_STS_ASSUME_ROLE')) return `${named} (an assumed role)`;
  if (has('CREDENTIALS_PROFILE')) return `${named} (~/.aws/credentials or ~/.aws/config)`;
  if (has('CREDENTIALS_HTTP')) return 'the container credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI or _RELATIVE_URI)';
  if (has('CREDENTIALS_IMDS')) return 'the EC2 instance metadata';
  return 'the AWS credential chain';
}
