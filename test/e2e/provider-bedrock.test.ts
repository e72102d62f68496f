/**
 * Amazon Bedrock end to end: the built binary against a local fake of Bedrock's runtime endpoint,
 * which checks each request's SigV4 signature (computed again with the known secret) and answers in
 * AWS's event-stream framing. Credentials come from fixtures only: a profile file in the temporary
 * HOME, a fake container credentials endpoint, the settings' commands. The instance metadata is
 * switched off (AWS_EC2_METADATA_DISABLED), so nothing reaches the network.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeBedrock, startFakeMetadata, type CloudFront } from '../support/fake-clouds.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYPROFILESECRET';
const REGION = 'us-west-2';

let upstream: FakeAnthropic;
let front: CloudFront;
let project: TmpProject;

/** The variables of a Bedrock user, no Anthropic key, and no instance metadata. */
function bedrockEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    ANTHROPIC_API_KEY: undefined,
    CLAUDE_CODE_USE_BEDROCK: '1',
    AWS_REGION: REGION,
    ANTHROPIC_BEDROCK_BASE_URL: front.url,
    AWS_EC2_METADATA_DISABLED: 'true',
    WICKET_RETRY_BASE_DELAY_MS: '10',
    ...extra,
  };
}

beforeAll(async () => {
  upstream = await startFakeAnthropic();
  front = await startFakeBedrock(upstream, {
    region: REGION,
    keys: {
      AKIDPROFILE: { secretAccessKey: SECRET },
      AKIDSTALE: { secretAccessKey: 'stale-secret', expired: true },
      AKIDFRESH: { secretAccessKey: 'fresh-secret' },
      ASIACONTAINER: { secretAccessKey: 'container-secret', sessionToken: 'container-session' },
      AKIDEXPORTED: { secretAccessKey: 'exported-secret', sessionToken: 'exported-session' },
    },
    apiKeys: ['bedrock-api-key'],
  });
});

afterAll(async () => {
  await front.close();
  await upstream.close();
});

afterEach(async () => {
  front.requests.length = 0;
  upstream.requests.length = 0;
  await project?.cleanup();
});

describe('Amazon Bedrock', () => {
  it('signs with the AWS_PROFILE of ~/.aws/credentials, sends Bedrock model ids, and runs a tool turn through the event stream', async () => {
    project = await makeTmpProject({
      files: { 'notes.txt': 'bedrock notes\n' },
      home: {
        '.aws/credentials': `[default]\naws_access_key_id = AKIDWRONG\naws_secret_access_key = nope\n\n[dev]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = ${SECRET}\n`,
      },
    });
    upstream.script(reply().toolUse('Read', { file_path: project.path('notes.txt') }), reply().text('Read it through Bedrock.'));
    const r = await runCli(['-p', 'read notes.txt', '--allowedTools', 'Read'], {
      cwd: project.dir,
      home: project.home,
      env: bedrockEnv({ AWS_PROFILE: 'dev' }),
    });
    expectExit(r, 0);
    expect(r.stdout).toContain('Read it through Bedrock.');
    expect(front.requests.map((q) => q.refused)).toEqual([undefined, undefined]);
    expect(front.requests.map((q) => q.accessKeyId)).toEqual(['AKIDPROFILE', 'AKIDPROFILE']);
    expect(front.requests[0]?.path).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream');
    expect(upstream.requests[0]?.body.model).toBe('us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    // The tool result went back in the second request: the event stream was decoded into a tool call.
    expect(JSON.stringify(upstream.requests[1]?.body.messages)).toContain('bedrock notes');
    expect(`${r.stdout}${r.stderr}${JSON.stringify(upstream.requests)}`).not.toContain(SECRET);
  });

  it('reads the provider from the settings env; an alias and ANTHROPIC_DEFAULT_OPUS_MODEL name the Bedrock model', async () => {
    project = await makeTmpProject({
      home: { '.aws/credentials': `[dev]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = ${SECRET}\n` },
      userSettings: { env: { CLAUDE_CODE_USE_BEDROCK: '1', AWS_REGION: REGION, AWS_PROFILE: 'dev', ANTHROPIC_BEDROCK_BASE_URL: front.url } },
    });
    const env = { ANTHROPIC_API_KEY: undefined, AWS_EC2_METADATA_DISABLED: 'true' };
    expectExit(await runCli(['-p', 'hi', '--model', 'opus'], { cwd: project.dir, home: project.home, env }), 0);
    const arn = 'arn:aws:bedrock:us-west-2:123456789012:application-inference-profile/team-opus';
    expectExit(await runCli(['-p', 'hi', '--model', 'opus'], { cwd: project.dir, home: project.home, env: { ...env, ANTHROPIC_DEFAULT_OPUS_MODEL: arn } }), 0);
    expect(upstream.requests.map((q) => q.body.model)).toEqual(['us.anthropic.claude-opus-4-6-v1', arn]);
    expect(front.requests.map((q) => q.refused)).toEqual([undefined, undefined]);
  });

  it('takes container credentials from a metadata endpoint, session token included, and wicket config names them', async () => {
    const metadata = await startFakeMetadata({ aws: { accessKeyId: 'ASIACONTAINER', secretAccessKey: 'container-secret', sessionToken: 'container-session' } });
    try {
      project = await makeTmpProject({});
      const env = bedrockEnv({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${metadata.url}/aws-credentials` });
      expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env }), 0);
      expect(metadata.hits).toContain('/aws-credentials');
      expect(front.requests.map((q) => [q.accessKeyId, q.refused])).toEqual([['ASIACONTAINER', undefined]]);
      expect(front.requests[0]?.headers['x-amz-security-token']).toBe('container-session');
      const config = expectExit(await runCli(['config'], { cwd: project.dir, home: project.home, env }), 0).stdout;
      expect(config).toContain('Model provider: Amazon Bedrock (CLAUDE_CODE_USE_BEDROCK)');
      expect(config).toMatch(/region\s+us-west-2 \(AWS_REGION\)/);
      expect(config).toMatch(/endpoint\s+http:\/\/127\.0\.0\.1:\d+ \(ANTHROPIC_BEDROCK_BASE_URL\)/);
      expect(config).toMatch(/credentials\s+the AWS credential chain/);
      expect(config).toContain('main us.anthropic.claude-sonnet-4-5-20250929-v1:0, small us.anthropic.claude-haiku-4-5-20251001-v1:0');
    } finally {
      await metadata.close();
    }
  });

  it('runs awsAuthRefresh when Bedrock says the token expired, shows its output, and signs again with the new profile', async () => {
    project = await makeTmpProject({ home: { '.aws/credentials': '[default]\naws_access_key_id = AKIDSTALE\naws_secret_access_key = stale-secret\n' } });
    const refresh = `printf '[default]\\naws_access_key_id = AKIDFRESH\\naws_secret_access_key = fresh-secret\\n' > "$HOME/.aws/credentials"; echo 'Open https://device.sso.example/ and enter ABCD-EFGH'`;
    await project.write('.claude/settings.local.json', JSON.stringify({ awsAuthRefresh: refresh }));
    upstream.script(reply().text('Signed in again.'));
    const r = expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: bedrockEnv() }), 0);
    expect(r.stdout).toContain('Signed in again.');
    expect(r.stderr).toContain('awsAuthRefresh: Open https://device.sso.example/ and enter ABCD-EFGH');
    expect(front.requests.map((q) => [q.accessKeyId, q.refused?.split(':')[0]])).toEqual([
      ['AKIDSTALE', 'ExpiredTokenException'],
      ['AKIDFRESH', undefined],
    ]);
  });

  it('signs with what awsCredentialExport prints', async () => {
    project = await makeTmpProject({});
    const exported = JSON.stringify({ Credentials: { AccessKeyId: 'AKIDEXPORTED', SecretAccessKey: 'exported-secret', SessionToken: 'exported-session' } });
    await project.write('.claude/settings.local.json', JSON.stringify({ awsCredentialExport: `echo '${exported}'` }));
    expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: bedrockEnv() }), 0);
    expect(front.requests.map((q) => [q.accessKeyId, q.refused])).toEqual([['AKIDEXPORTED', undefined]]);
    expect(front.requests[0]?.headers['x-amz-security-token']).toBe('exported-session');
  });

  it('sends a Bedrock API key as a bearer token, and nothing at all with CLAUDE_CODE_SKIP_BEDROCK_AUTH', async () => {
    project = await makeTmpProject({});
    expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: bedrockEnv({ AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key' }) }), 0);
    expect(front.requests[0]?.headers.authorization).toBe('Bearer bedrock-api-key');
    expect(front.requests[0]?.refused).toBeUndefined();
    const gateway = await startFakeBedrock(upstream, { region: REGION, noAuth: true });
    try {
      const env = bedrockEnv({ CLAUDE_CODE_SKIP_BEDROCK_AUTH: '1', ANTHROPIC_BEDROCK_BASE_URL: gateway.url });
      expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env }), 0);
      expect(gateway.requests[0]?.headers.authorization).toBeUndefined();
      expect(gateway.requests[0]?.refused).toBeUndefined();
    } finally {
      await gateway.close();
    }
  });

  it('retries a throttled request with its own backoff, and stops with a clear sentence when no credentials exist', async () => {
    project = await makeTmpProject({ home: { '.aws/credentials': `[default]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = ${SECRET}\n` } });
    upstream.script(reply().error(429, { message: 'slow down' }), reply().text('after the throttle'));
    const r = expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: bedrockEnv() }), 0);
    expect(r.stdout).toContain('after the throttle');
    expect(r.stderr).toMatch(/429 .*slow down; retrying/);
    await project.cleanup();
    project = await makeTmpProject({});
    front.requests.length = 0;
    const none = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: bedrockEnv() });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('no AWS credentials for Bedrock');
    expect(front.requests).toEqual([]);
  });
});
