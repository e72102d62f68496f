/**
 * The pure parts of the providers: which provider the variables choose, each provider's model ids
 * and aliases, the Vertex regions per model, the SDK clients' errors as the model client knows
 * them, and the AWS credentials' lookup, expiry and refresh (with a stand-in credential chain).
 */
import { APIConnectionError, APIError } from '@anthropic-ai/sdk/core/error';
import { describe, expect, it } from 'vitest';
import { FatalError } from '../../../src/base/errors.js';
import { ApiTimeoutError } from '../../../src/api/limits.js';
import { AwsCredentials, parseExported, type AwsIdentity } from '../../../src/api/providers/aws-credentials.js';
import { chooseProvider, isTruthy } from '../../../src/api/providers/choose.js';
import { providerWarnings } from '../../../src/api/providers/index.js';
import { providerAliases, providerModelId, vertexRegionEnv } from '../../../src/api/providers/models.js';
import { fromSdkError } from '../../../src/api/providers/sdk-errors.js';
import { displayURL } from '../../../src/api/display-url.js';
import { vertexConfig, vertexEndpoint, vertexRegionFor, vertexTransport } from '../../../src/api/providers/vertex.js';
import { bedrockConfig, bedrockTransport } from '../../../src/api/providers/bedrock.js';
import { foundryConfig, foundryTransport } from '../../../src/api/providers/foundry.js';

describe('choosing the provider', () => {
  it('follows CLAUDE_CODE_USE_BEDROCK, then _VERTEX, then _FOUNDRY, and notes the ones not followed', () => {
    expect(chooseProvider({})).toEqual({ kind: 'firstParty', ignored: [] });
    expect(chooseProvider({ CLAUDE_CODE_USE_VERTEX: 'true', CLAUDE_CODE_USE_FOUNDRY: '1' })).toEqual({
      kind: 'vertex',
      via: 'CLAUDE_CODE_USE_VERTEX',
      ignored: ['CLAUDE_CODE_USE_FOUNDRY'],
    });
    expect(chooseProvider({ CLAUDE_CODE_USE_BEDROCK: '0', CLAUDE_CODE_USE_FOUNDRY: 'YES' }).kind).toBe('foundry');
    expect(['1', 'true', 'On', ' yes '].every(isTruthy)).toBe(true);
    expect(['0', 'false', '', 'no', undefined].some(isTruthy)).toBe(false);
  });

  it('warns once of each setting the choice leaves unused', () => {
    const both = chooseProvider({ CLAUDE_CODE_USE_BEDROCK: '1', CLAUDE_CODE_USE_VERTEX: '1' });
    expect(providerWarnings(both, { apiKeyHelper: 'get-key', forceLoginMethod: 'claudeai' })).toEqual([
      'CLAUDE_CODE_USE_BEDROCK chooses Amazon Bedrock; CLAUDE_CODE_USE_VERTEX is set too and not followed',
      'apiKeyHelper is not used: the requests go to Amazon Bedrock (CLAUDE_CODE_USE_BEDROCK), with its own credentials',
      'forceLoginMethod "claudeai" is not supported: wicket has no Claude.ai login; it uses ANTHROPIC_API_KEY, an apiKeyHelper or a cloud provider',
    ]);
    expect(providerWarnings(chooseProvider({}), { apiKeyHelper: 'get-key', forceLoginMethod: 'console' })).toEqual([]);
  });
});

describe('model ids per provider', () => {
  it("sends a model wicket knows under each provider's id, and any other name as written", () => {
    expect(providerModelId('bedrock', 'claude-sonnet-4-5')).toBe('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(providerModelId('bedrock', 'claude-sonnet-4-5-20250929')).toBe('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(providerModelId('vertex', 'claude-opus-4-1-20250805')).toBe('claude-opus-4-1@20250805');
    expect(providerModelId('vertex', 'us.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe('claude-haiku-4-5@20251001');
    expect(providerModelId('foundry', 'claude-sonnet-4-0')).toBe('claude-sonnet-4');
    expect(providerModelId('bedrock', 'claude-sonnet-4-6[1m]')).toBe('us.anthropic.claude-sonnet-4-6');
    const arn = 'arn:aws:bedrock:us-east-1:123:inference-profile/x';
    expect(providerModelId('bedrock', arn)).toBe(arn);
    expect(providerModelId('foundry', 'my-deployment')).toBe('my-deployment');
    expect(providerModelId('firstParty', 'claude-sonnet-4-6[1m]')).toBe('claude-sonnet-4-6[1m]');
  });

  it("gives the aliases each provider's defaults, with ANTHROPIC_DEFAULT_*_MODEL over them", () => {
    expect(providerAliases('firstParty', {})).toEqual({ opus: 'claude-opus-4-7', sonnet: 'claude-sonnet-4-6', haiku: 'claude-haiku-4-5' });
    expect(providerAliases('vertex', {})).toEqual({ opus: 'claude-opus-4-6', sonnet: 'claude-sonnet-4-5@20250929', haiku: 'claude-haiku-4-5@20251001' });
    expect(providerAliases('foundry', { ANTHROPIC_DEFAULT_HAIKU_MODEL: ' team-haiku ' })).toEqual({
      opus: 'claude-opus-4-6',
      sonnet: 'claude-sonnet-4-5',
      haiku: 'team-haiku',
    });
    expect(providerAliases('firstParty', { ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-opus-4-1' }).opus).toBe('claude-opus-4-1');
  });

  it("sends a Vertex model to its own region's variable, else CLOUD_ML_REGION, else us-east5", () => {
    expect(vertexRegionEnv('claude-sonnet-4-5@20250929')).toBe('VERTEX_REGION_CLAUDE_4_5_SONNET');
    expect(vertexRegionEnv('claude-haiku-4-5')).toBe('VERTEX_REGION_CLAUDE_HAIKU_4_5');
    expect(vertexRegionEnv('some-model')).toBeUndefined();
    const c = vertexConfig({ CLOUD_ML_REGION: 'global', VERTEX_REGION_CLAUDE_4_5_SONNET: 'us-east5' }, {});
    expect(vertexRegionFor(c, 'claude-sonnet-4-5@20250929')).toBe('us-east5');
    expect(vertexRegionFor(c, 'claude-opus-4-6')).toBe('global');
    expect(vertexEndpoint(c)).toBe('https://aiplatform.googleapis.com/v1');
    expect(vertexEndpoint(c, 'europe-west1')).toBe('https://europe-west1-aiplatform.googleapis.com/v1');
    expect(vertexConfig({}, {}).region).toBe('us-east5');
  });
});

describe("the SDK clients' errors", () => {
  const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n.toLowerCase()] ?? null });

  it("reads an AWS error body as Anthropic's, keeping its status and type", () => {
    const aws = Object.assign(new Error('403 {"message":"expired"}'), {
      name: 'PermissionDeniedError',
      status: 403,
      error: { message: 'The security token included in the request is expired' },
      headers: headers({ 'x-amzn-errortype': 'ExpiredTokenException:http://internal.amazon.com/' }),
    });
    const err = fromSdkError(aws) as APIError;
    expect(err).toBeInstanceOf(APIError);
    expect(err.status).toBe(403);
    expect(err.type).toBe('ExpiredTokenException');
    expect(err.apiMessage).toBe('The security token included in the request is expired');
  });

  it('keeps an overloaded stream error recognisable, and connection errors retryable', () => {
    const event = Object.assign(new Error('Overloaded'), {
      name: 'APIError',
      status: undefined,
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const err = fromSdkError(event) as APIError;
    expect(err).toBeInstanceOf(APIError);
    expect(err.type).toBe('overloaded_error');
    const conn = fromSdkError(Object.assign(new Error('Connection error.'), { name: 'APIConnectionError', cause: new Error('ECONNRESET') }));
    expect(conn).toBeInstanceOf(APIConnectionError);
    expect((conn as Error).message).toBe('Connection error: ECONNRESET');
  });

  it("unwraps wicket's own errors from the SDK's wrapping", () => {
    const fatal = new FatalError('auth', 'no AWS credentials');
    expect(fromSdkError(Object.assign(new Error('Failed to resolve AWS credentials'), { name: 'APIConnectionError', cause: fatal }))).toBe(fatal);
    const timeout = new ApiTimeoutError('the API sent nothing for 60 s');
    expect(fromSdkError(Object.assign(new Error('Connection error.'), { name: 'APIConnectionError', cause: timeout }))).toBe(timeout);
  });
});

describe('AWS credentials', () => {
  /** A stand-in for the AWS credential providers: each chain call gives the next of `answers`. */
  function parts(answers: Array<AwsIdentity | Error>) {
    let calls = 0;
    const chain = async () => {
      const next = answers[Math.min(calls++, answers.length - 1)];
      if (next instanceof Error) throw next;
      return next;
    };
    return {
      parts: { createCredentialChain: () => chain, fromEnv: () => chain, fromNodeProviderChain: () => chain } as never,
      calls: () => calls,
    };
  }
  const key = (id: string, expiration?: Date): AwsIdentity => ({ accessKeyId: id, secretAccessKey: 's', ...(expiration ? { expiration } : {}) });

  it('keeps credentials until they near their expiry, then looks again', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const p = parts([key('A', new Date(now + 3600_000)), key('B')]);
    const creds = new AwsCredentials(
      p.parts,
      {},
      async () => '',
      () => now,
    );
    expect((await creds.get(() => {})).accessKeyId).toBe('A');
    expect((await creds.get(() => {})).accessKeyId).toBe('A');
    now += 3600_000 - 60_000;
    expect((await creds.get(() => {})).accessKeyId).toBe('B');
    expect(p.calls()).toBe(2);
  });

  it('runs awsAuthRefresh when none are found, passes its output on, and says where it looked when still none', async () => {
    const ran: string[] = [];
    const notices: string[] = [];
    const run = async (setting: string, _cmd: string, onOutput?: (l: string) => void) => {
      ran.push(setting);
      onOutput?.('open the link');
      return '';
    };
    const found = new AwsCredentials(parts([new Error('no profile'), key('AFTER')]).parts, { awsAuthRefresh: 'aws sso login' }, run);
    expect((await found.get((t) => notices.push(t))).accessKeyId).toBe('AFTER');
    expect(ran).toEqual(['awsAuthRefresh']);
    expect(notices).toEqual(['awsAuthRefresh: open the link']);
    const none = new AwsCredentials(parts([new Error('Could not load credentials from any providers.')]).parts, { profile: 'dev' }, run);
    await expect(none.get(() => {})).rejects.toThrow(
      /no AWS credentials for Bedrock from the AWS profile "dev": Could not load credentials from any providers\. Sign in/,
    );
  });

  it('reads awsCredentialExport output, and refuses output that is not the expected JSON', () => {
    expect(parseExported('{"Credentials":{"AccessKeyId":"A","SecretAccessKey":"S","SessionToken":"T","Expiration":"2030-01-01T00:00:00Z"}}')).toEqual({
      accessKeyId: 'A',
      secretAccessKey: 'S',
      sessionToken: 'T',
      expiration: new Date('2030-01-01T00:00:00Z'),
    });
    expect(() => parseExported('AKIA... not json')).toThrow(/awsCredentialExport did not print JSON/);
    expect(() => parseExported('{"Credentials":{}}')).toThrow(/no Credentials.AccessKeyId/);
  });
});

describe('URLs shown to the person', () => {
  it('mask a user name and password, and leave the rest as given', () => {
    expect(displayURL('https://team:s3cret@gateway.example/bedrock')).toBe('https://***@gateway.example/bedrock');
    expect(displayURL('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1');
    expect(displayURL('not a url')).toBe('not a url');
  });
});

describe("a provider's endpoint", () => {
  const deps = { run: async () => '' };
  it('is refused before any request when it is not an http or https URL, naming the variable', () => {
    expect(() => bedrockTransport(bedrockConfig({ ANTHROPIC_BEDROCK_BASE_URL: 'bedrock.internal:443' }, {}), deps)).toThrow(
      /ANTHROPIC_BEDROCK_BASE_URL must be an http or https URL/,
    );
    expect(() => foundryTransport(foundryConfig({ ANTHROPIC_FOUNDRY_RESOURCE: 'bad name' }), deps)).toThrow(/ANTHROPIC_FOUNDRY_RESOURCE does not make a URL/);
    expect(() => vertexTransport(vertexConfig({ CLOUD_ML_REGION: 'us-east5' }, {}), deps)).not.toThrow();
  });
});
