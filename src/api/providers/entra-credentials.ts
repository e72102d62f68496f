/**
 * A Microsoft Entra ID token for Foundry, when no ANTHROPIC_FOUNDRY_API_KEY is set: Azure's default
 * credential chain (AZURE_CLIENT_ID and a secret or certificate, workload identity, managed
 * identity, `az login`, `azd auth login`, PowerShell; AZURE_TOKEN_CREDENTIALS narrows it), as
 * Claude Code uses it. The token is kept until five minutes before it expires.
 */
import { FatalError, errorMessage } from '../../base/errors.js';
import type { foundryLib } from './foundry-lib.js';

type Parts = Awaited<ReturnType<typeof foundryLib>>;

const SCOPE = 'https://cognitiveservices.azure.com/.default';
const EARLY_MS = 5 * 60_000;

interface AccessToken {
  token: string;
  expiresOnTimestamp: number;
}

export class EntraCredentials {
  source = 'Microsoft Entra ID (Azure default credential chain)';
  private token: AccessToken | undefined;
  private chain: InstanceType<Parts['DefaultAzureCredential']> | undefined;

  constructor(
    private readonly parts: Parts,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bearer token; what Anthropic's Foundry client calls as its `azureADTokenProvider`. */
  readonly provide = async (): Promise<string> => {
    if (this.token && this.token.expiresOnTimestamp - EARLY_MS > this.now()) return this.token.token;
    try {
      this.chain ??= new this.parts.DefaultAzureCredential();
      const chain = this.chain as unknown as { getTokenInternal?: (s: string) => Promise<{ token: AccessToken; successfulCredential: unknown }> };
      if (chain.getTokenInternal) {
        const { token, successfulCredential } = await chain.getTokenInternal(SCOPE);
        this.token = token;
        this.source = `Microsoft Entra ID (${this.member(successfulCredential)})`;
      } else {
        const token = await this.chain.getToken(SCOPE);
        if (!token) throw new Error('the credential chain gave no token');
        this.token = token;
      }
      return this.token.token;
    } catch (err) {
      throw new FatalError(
        'auth',
        `no Microsoft Entra ID token for Foundry: ${(errorMessage(err).split('\n')[0] ?? '').replace(/\.+$/, '')}. Sign in (az login), set the AZURE_* variables of a service principal, or set ANTHROPIC_FOUNDRY_API_KEY`,
      );
    }
  };

  /** Foundry refused the token (401): the next request asks the chain for a new one. */
  forget(): void {
    this.token = undefined;
    this.chain = undefined;
  }

  private member(c: unknown): string {
    const p = this.parts;
    const names: Array<[unknown, string]> = [
      [p.EnvironmentCredential, 'AZURE_CLIENT_ID and its secret or certificate'],
      [p.WorkloadIdentityCredential, 'workload identity'],
      [p.ManagedIdentityCredential, 'managed identity'],
      [p.AzureCliCredential, 'Azure CLI: az login'],
      [p.AzureDeveloperCliCredential, 'Azure Developer CLI: azd auth login'],
      [p.AzurePowerShellCredential, 'Azure PowerShell'],
      [p.VisualStudioCodeCredential, 'Visual Studio Code'],
    ];
    return names.find(([cls]) => c instanceof (cls as new () => unknown))?.[1] ?? 'Azure default credential chain';
  }
}
