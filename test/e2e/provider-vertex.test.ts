/**
 * Google Vertex AI end to end: the built binary against a local fake of Vertex's endpoint, which
 * checks the bearer token and the model's `:streamRawPredict` path. Application Default Credentials
 * come from a fake metadata server (GCE_METADATA_HOST), never from Google.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeMetadata, startFakeVertex, type CloudFront, type MetadataServer } from '../support/fake-clouds.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

let upstream: FakeAnthropic;
let front: CloudFront;
let metadata: MetadataServer;
let project: TmpProject;
/** The token the metadata server hands out: a file, so that gcpAuthRefresh can change it. */
let tokenFile: string;

function vertexEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    ANTHROPIC_API_KEY: undefined,
    CLAUDE_CODE_USE_VERTEX: '1',
    CLOUD_ML_REGION: 'us-east5',
    ANTHROPIC_VERTEX_PROJECT_ID: 'team-project',
    ANTHROPIC_VERTEX_BASE_URL: `${front.url}/v1`,
    GCE_METADATA_HOST: metadata.host,
    METADATA_SERVER_DETECTION: 'assume-present',
    ...extra,
  };
}

beforeAll(async () => {
  upstream = await startFakeAnthropic();
  front = await startFakeVertex(upstream, { project: 'team-project', tokens: ['ya29.metadata-token', 'ya29.after-refresh'] });
  metadata = await startFakeMetadata({ googleToken: () => readFileSync(tokenFile, 'utf8').trim() });
});

afterAll(async () => {
  await Promise.all([front.close(), metadata.close(), upstream.close()]);
});

afterEach(async () => {
  front.requests.length = 0;
  upstream.requests.length = 0;
  metadata.hits.length = 0;
  await project?.cleanup();
});

async function newProject(token = 'ya29.metadata-token'): Promise<TmpProject> {
  project = await makeTmpProject({ files: { 'notes.txt': 'vertex notes\n' } });
  tokenFile = path.join(project.home, 'metadata-token');
  writeFileSync(tokenFile, token);
  return project;
}

describe('Google Vertex AI', () => {
  it("sends the metadata server's token to the model's :streamRawPredict in the project and region, and runs a tool turn", async () => {
    await newProject();
    upstream.script(reply().toolUse('Read', { file_path: project.path('notes.txt') }), reply().text('Read it through Vertex.'));
    const r = expectExit(await runCli(['-p', 'read notes.txt', '--allowedTools', 'Read'], { cwd: project.dir, home: project.home, env: vertexEnv() }), 0);
    expect(r.stdout).toContain('Read it through Vertex.');
    expect(front.requests.map((q) => q.refused)).toEqual([undefined, undefined]);
    expect(front.requests[0]?.path).toBe(
      '/v1/projects/team-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    );
    expect(front.requests[0]?.headers.authorization).toBe('Bearer ya29.metadata-token');
    expect(metadata.hits.some((h) => h.endsWith('/service-accounts/default/token'))).toBe(true);
    expect(JSON.stringify(upstream.requests[1]?.body.messages)).toContain('vertex notes');
  });

  it('sends a model to its own VERTEX_REGION_* region, and wicket config names the provider, project, regions and models', async () => {
    await newProject();
    const env = vertexEnv({ VERTEX_REGION_CLAUDE_HAIKU_4_5: 'europe-west1', ANTHROPIC_DEFAULT_SONNET_MODEL: 'claude-sonnet-4-6' });
    expectExit(await runCli(['-p', 'hi', '--model', 'haiku'], { cwd: project.dir, home: project.home, env }), 0);
    expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env }), 0);
    expect(front.requests.map((q) => q.path)).toEqual([
      '/v1/projects/team-project/locations/europe-west1/publishers/anthropic/models/claude-haiku-4-5@20251001:streamRawPredict',
      '/v1/projects/team-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6:streamRawPredict',
    ]);
    const config = expectExit(await runCli(['config'], { cwd: project.dir, home: project.home, env }), 0).stdout;
    expect(config).toContain('Model provider: Google Vertex AI (CLAUDE_CODE_USE_VERTEX)');
    expect(config).toMatch(/region\s+us-east5 \(CLOUD_ML_REGION\); VERTEX_REGION_CLAUDE_HAIKU_4_5=europe-west1/);
    expect(config).toMatch(/project\s+team-project \(ANTHROPIC_VERTEX_PROJECT_ID\)/);
    expect(config).toMatch(/credentials\s+Application Default Credentials/);
    expect(config).toContain('sonnet = claude-sonnet-4-6 (ANTHROPIC_DEFAULT_SONNET_MODEL)');
  });

  it('runs gcpAuthRefresh when Vertex refuses the token, shows its output, and sends the new one', async () => {
    await newProject('ya29.revoked');
    const refresh = `printf 'ya29.after-refresh' > '${tokenFile}'; echo 'Credentials saved'`;
    await project.write('.claude/settings.local.json', JSON.stringify({ gcpAuthRefresh: refresh }));
    upstream.script(reply().text('Authorized again.'));
    const r = expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: vertexEnv() }), 0);
    expect(r.stdout).toContain('Authorized again.');
    expect(r.stderr).toContain('gcpAuthRefresh: Credentials saved');
    expect(front.requests.map((q) => q.headers.authorization)).toEqual(['Bearer ya29.revoked', 'Bearer ya29.after-refresh']);
    expect(front.requests[0]?.refused).toContain('invalid authentication credentials');
  });

  it('sends no Authorization at all with CLAUDE_CODE_SKIP_VERTEX_AUTH', async () => {
    await newProject();
    const gateway = await startFakeVertex(upstream, { project: 'team-project', tokens: [], noAuth: true });
    try {
      const env = vertexEnv({ CLAUDE_CODE_SKIP_VERTEX_AUTH: '1', ANTHROPIC_VERTEX_BASE_URL: `${gateway.url}/v1`, GCE_METADATA_HOST: '127.0.0.1:9' });
      expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env }), 0);
      expect(gateway.requests.map((q) => [q.headers.authorization, q.refused])).toEqual([[undefined, undefined]]);
    } finally {
      await gateway.close();
    }
  });

  it('stops with a clear sentence when there are no Google credentials, and sends nothing', async () => {
    await newProject();
    const env = vertexEnv({ METADATA_SERVER_DETECTION: 'none', GCE_METADATA_HOST: undefined });
    const r = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('no Google credentials for Vertex AI');
    expect(r.stderr).toContain('gcloud auth application-default login');
    expect(front.requests).toEqual([]);
  });
});
