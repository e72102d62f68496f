/**
 * The Google credentials a Vertex AI request carries: Application Default Credentials, as the
 * Google libraries find them (GOOGLE_APPLICATION_CREDENTIALS, `gcloud auth application-default
 * login`'s file, workload identity federation, the metadata server on Google Cloud), or none at
 * all for a gateway that adds them (CLAUDE_CODE_SKIP_VERTEX_AUTH). When none can be had, or Vertex
 * refuses them (401), `gcpAuthRefresh` (settings; its output is shown) runs and they are looked for
 * again. The object handed to Anthropic's Vertex client is the `authClient` it asks headers of.
 */
import { FatalError, errorMessage } from '../../base/errors.js';
import type { RunCommand } from './aws-credentials.js';
import type { vertexLib } from './vertex-lib.js';

type Parts = Awaited<ReturnType<typeof vertexLib>>;
type Auth = InstanceType<Parts['GoogleAuth']>;

export interface GcpCredentialSettings {
  /** ANTHROPIC_VERTEX_PROJECT_ID. */
  projectId?: string;
  /** GCLOUD_PROJECT, GOOGLE_CLOUD_PROJECT or GOOGLE_APPLICATION_CREDENTIALS is set: Google's libraries find the project themselves. */
  projectFromGoogle: boolean;
  keyFile?: string;
  skipAuth: boolean;
  gcpAuthRefresh?: string;
}

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export class GcpCredentials {
  source = 'not looked for yet';
  /** The project the requests name: ANTHROPIC_VERTEX_PROJECT_ID, else the credentials' own. */
  projectId: string | undefined;
  private auth: Auth | undefined;
  notice: (text: string) => void = () => {};

  constructor(
    private readonly parts: Parts,
    private readonly settings: GcpCredentialSettings,
    private readonly run: RunCommand,
  ) {
    this.projectId = settings.projectId;
    if (settings.skipAuth) this.source = 'none: CLAUDE_CODE_SKIP_VERTEX_AUTH (the gateway adds them)';
  }

  /** What Anthropic's Vertex client calls before each request. */
  async getRequestHeaders(): Promise<Headers> {
    if (this.settings.skipAuth) return this.needProject(new Headers());
    const first = await this.headers().catch((err: unknown) => err as Error);
    if (!(first instanceof Error)) return this.needProject(first);
    if (!this.settings.gcpAuthRefresh) throw this.none(first);
    await this.refresh();
    return this.needProject(await this.headers().catch((err: unknown) => Promise.reject(this.none(err as Error))));
  }

  /** Vertex refused the token (401): forget it, run gcpAuthRefresh, and try once more. */
  async renew(onNotice: (text: string) => void): Promise<boolean> {
    this.notice = onNotice;
    this.auth = undefined;
    if (this.settings.gcpAuthRefresh) await this.refresh();
    return !this.settings.skipAuth;
  }

  private async headers(): Promise<Headers> {
    const options = { scopes: SCOPE, ...(this.settings.projectId && !this.settings.projectFromGoogle ? { projectId: this.settings.projectId } : {}) };
    this.auth ??= new this.parts.GoogleAuth(options);
    const client = await this.auth.getClient();
    const headers = await client.getRequestHeaders();
    this.source = this.describe(client);
    this.projectId ??= client.projectId ?? (await this.auth.getProjectId().catch(() => undefined)) ?? undefined;
    return headers;
  }

  private needProject(headers: Headers): Headers {
    if (!this.projectId) throw new FatalError('config', 'no Google Cloud project for Vertex AI: set ANTHROPIC_VERTEX_PROJECT_ID');
    return headers;
  }

  private async refresh(): Promise<void> {
    await this.run('gcpAuthRefresh', this.settings.gcpAuthRefresh ?? '', (line) => this.notice(`gcpAuthRefresh: ${line}`));
    this.auth = undefined;
  }

  private none(err: Error): FatalError {
    if (err instanceof FatalError) return err;
    return new FatalError(
      'auth',
      `no Google credentials for Vertex AI: ${errorMessage(err).replace(/\.+$/, '')}. Run gcloud auth application-default login, set GOOGLE_APPLICATION_CREDENTIALS, or set gcpAuthRefresh in the settings`,
    );
  }

  private describe(client: unknown): string {
    const p = this.parts;
    const file = this.settings.keyFile ? ` (${this.settings.keyFile})` : '';
    if (client instanceof p.Compute) return 'the Google Cloud metadata server';
    if (client instanceof p.JWT) return `a service account key${file}`;
    if (client instanceof p.UserRefreshClient) return `Application Default Credentials${file || ' (gcloud auth application-default login)'}`;
    if (client instanceof p.Impersonated) return `service account impersonation${file}`;
    if (client instanceof p.BaseExternalAccountClient) return `workload identity federation${file}`;
    return `Application Default Credentials${file}`;
  }
}
