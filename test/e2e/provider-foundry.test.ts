/**
 * Microsoft Foundry end to end: the built binary against a local fake of a Foundry resource's
 * `/anthropic/v1/messages`, which checks the API key or the Microsoft Entra ID token. The Entra
 * token comes from a fake `az` on PATH (Azure's default chain narrowed to the Azure CLI with
 * AZURE_TOKEN_CREDENTIALS), never from Azure.
 */
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeFoundry, type CloudFront } from '../support/fake-clouds.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

const KEY = 'foundry-key-5f1c0e';

let upstream: FakeAnthropic;
let front: CloudFront;
let project: TmpProject;

function foundryEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { ANTHROPIC_API_KEY: undefined, CLAUDE_CODE_USE_FOUNDRY: '1', ANTHROPIC_FOUNDRY_BASE_URL: `${front.url}/anthropic`, ...extra };
}

beforeAll(async () => {
  upstream = await startFakeAnthropic();
  front = await startFakeFoundry(upstream, { apiKeys: [KEY], tokens: ['entra-token-from-az'] });
});

afterAll(async () => {
  await Promise.all([front.close(), upstream.close()]);
});

afterEach(async () => {
  front.requests.length = 0;
  upstream.requests.length = 0;
  await project?.cleanup();
});

describe('Microsoft Foundry', () => {
  it('sends ANTHROPIC_FOUNDRY_API_KEY to the resource, names the deployment, and runs a tool turn', async () => {
    project = await makeTmpProject({ files: { 'notes.txt': 'foundry notes\n' } });
    upstream.script(reply().toolUse('Read', { file_path: project.path('notes.txt') }), reply().text('Read it through Foundry.'));
    const env = foundryEnv({ ANTHROPIC_FOUNDRY_API_KEY: KEY });
    const r = expectExit(await runCli(['-p', 'read notes.txt', '--allowedTools', 'Read'], { cwd: project.dir, home: project.home, env }), 0);
    expect(r.stdout).toContain('Read it through Foundry.');
    expect(front.requests.map((q) => [q.path, q.headers['x-api-key'], q.refused])).toEqual([
      ['/anthropic/v1/messages', KEY, undefined],
      ['/anthropic/v1/messages', KEY, undefined],
    ]);
    expect(upstream.requests[0]?.body.model).toBe('claude-sonnet-4-5');
    expect(JSON.stringify(upstream.requests[1]?.body.messages)).toContain('foundry notes');
    const config = expectExit(
      await runCli(['config'], { cwd: project.dir, home: project.home, env: foundryEnv({ ANTHROPIC_FOUNDRY_API_KEY: KEY }) }),
      0,
    ).stdout;
    expect(config).toContain('Model provider: Microsoft Foundry (CLAUDE_CODE_USE_FOUNDRY)');
    expect(config).toMatch(/credentials\s+ANTHROPIC_FOUNDRY_API_KEY/);
    expect(config).not.toContain(KEY);
  });

  it('gets a Microsoft Entra ID token from the Azure CLI when no key is set; aliases name deployments', async () => {
    project = await makeTmpProject({});
    const bin = path.join(project.home, 'bin');
    await project.writeHome(
      'bin/az',
      '#!/bin/sh\necho \'{"accessToken": "entra-token-from-az", "expiresOn": "2099-01-01 00:00:00.000000", "expires_on": 4070908800, "tokenType": "Bearer"}\'\n',
    );
    chmodSync(path.join(bin, 'az'), 0o755);
    const env = foundryEnv({
      PATH: `${bin}:${process.env.PATH}`,
      AZURE_TOKEN_CREDENTIALS: 'AzureCliCredential',
      ANTHROPIC_DEFAULT_OPUS_MODEL: 'team-opus-deployment',
    });
    expectExit(await runCli(['-p', 'hi', '--model', 'opus'], { cwd: project.dir, home: project.home, env }), 0);
    expectExit(await runCli(['-p', 'hi', '--model', 'haiku'], { cwd: project.dir, home: project.home, env }), 0);
    expect(front.requests.map((q) => [q.headers.authorization, q.headers['x-api-key'], q.refused])).toEqual([
      ['Bearer entra-token-from-az', undefined, undefined],
      ['Bearer entra-token-from-az', undefined, undefined],
    ]);
    expect(upstream.requests.map((q) => q.body.model)).toEqual(['team-opus-deployment', 'claude-haiku-4-5']);
  });

  it('sends no credentials with CLAUDE_CODE_SKIP_FOUNDRY_AUTH, and a refused key stops the run with a sentence that names it', async () => {
    project = await makeTmpProject({});
    const gateway = await startFakeFoundry(upstream, { noAuth: true });
    try {
      const env = foundryEnv({ CLAUDE_CODE_SKIP_FOUNDRY_AUTH: '1', ANTHROPIC_FOUNDRY_BASE_URL: `${gateway.url}/anthropic` });
      expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env }), 0);
      expect(gateway.requests.map((q) => [q.headers.authorization, q.headers['x-api-key'], q.refused])).toEqual([[undefined, undefined, undefined]]);
    } finally {
      await gateway.close();
    }
    const r = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: foundryEnv({ ANTHROPIC_FOUNDRY_API_KEY: 'wrong-key' }) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('authentication failed (401): check the credentials from ANTHROPIC_FOUNDRY_API_KEY');
    expect(r.stderr).not.toContain('wrong-key');
  });

  it('builds the endpoint from ANTHROPIC_FOUNDRY_RESOURCE, warns of the settings it does not use, and says what is missing', async () => {
    project = await makeTmpProject({ userSettings: { apiKeyHelper: 'echo unused-key', forceLoginMethod: 'claudeai' } });
    const env = { ANTHROPIC_API_KEY: undefined, CLAUDE_CODE_USE_FOUNDRY: '1', ANTHROPIC_FOUNDRY_RESOURCE: 'team-resource' };
    const config = expectExit(await runCli(['config'], { cwd: project.dir, home: project.home, env }), 0).stdout;
    expect(config).toMatch(/endpoint\s+https:\/\/team-resource\.services\.ai\.azure\.com\/anthropic\/ \(ANTHROPIC_FOUNDRY_RESOURCE\)/);
    expect(config).toMatch(/credentials\s+Microsoft Entra ID/);
    expect(config).toContain('apiKeyHelper is not used: the requests go to Microsoft Foundry (CLAUDE_CODE_USE_FOUNDRY)');
    expect(config).toContain('forceLoginMethod "claudeai" is not supported');
    const r = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, env: { ...env, ANTHROPIC_FOUNDRY_RESOURCE: undefined } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Microsoft Foundry needs ANTHROPIC_FOUNDRY_RESOURCE');
  });
});
