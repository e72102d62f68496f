/**
 * /status and /doctor name the model service: the provider, region and endpoint, where the
 * credentials came from (once a request has found them), and the model ids. The client is the
 * session's real one (client-setup.ts) against a local fake of Bedrock; credentials from a
 * profile file fixture.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { askOnce } from '../../src/api/ask-once.js';
import { clientFromEnv, useProvider } from '../../src/core/setup/client-setup.js';
import { emptyTotals } from '../../src/core/run-prompt.js';
import { BUILTIN_COMMANDS } from '../../src/ui/commands/builtin.js';
import { doctorCommand } from '../../src/ui/commands/session-info.js';
import type { SessionControl } from '../../src/ui/commands/types.js';
import type { ModelClient } from '../../src/api/model-client.js';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeBedrock, type CloudFront } from '../support/fake-clouds.js';

let dir: string;
let upstream: FakeAnthropic;
let front: CloudFront;
const saved = { ...process.env };

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-provider-status-')));
  upstream = await startFakeAnthropic();
  front = await startFakeBedrock(upstream, { region: 'eu-west-1', keys: { AKIDSTATUS: { secretAccessKey: 'status-secret' } } });
});
afterAll(async () => {
  await Promise.all([front.close(), upstream.close()]);
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  // The cloud libraries read their variables from the process: put it back as it was.
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

function session(client: ModelClient, env: Record<string, string | undefined>, smallModel: string): SessionControl {
  return {
    options: {
      client,
      model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      smallModel,
      env,
      additionalDirs: [],
      tools: [],
      state: { cwd: dir },
      permission: { mode: 'default' },
      settings: {},
      sessionId: 's',
      wicketHome: dir,
    },
    loaded: { hooks: [], warnings: [], sources: [] },
    cwd: dir,
    totals: emptyTotals(),
    traces: [],
    commands: [],
  } as unknown as SessionControl;
}

async function text(name: string, s: SessionControl): Promise<string> {
  const command = BUILTIN_COMMANDS.find((c) => c.name === name) ?? doctorCommand;
  const out = await command.run('', s);
  return out.kind === 'info' ? out.text : '';
}

describe('/status on a cloud provider', () => {
  it('shows the provider, region, endpoint and model ids, then the profile the credentials came from', async () => {
    const credentials = path.join(dir, 'credentials');
    writeFileSync(credentials, '[team]\naws_access_key_id = AKIDSTATUS\naws_secret_access_key = status-secret\n');
    const env = {
      CLAUDE_CODE_USE_BEDROCK: '1',
      AWS_REGION: 'eu-west-1',
      AWS_PROFILE: 'team',
      AWS_SHARED_CREDENTIALS_FILE: credentials,
      AWS_CONFIG_FILE: path.join(dir, 'no-config'),
      AWS_EC2_METADATA_DISABLED: 'true',
      ANTHROPIC_BEDROCK_BASE_URL: front.url,
      WICKET_MAX_RETRIES: '0',
    };
    const plan = useProvider(env, {});
    expect(plan.aliases).toEqual({
      sonnet: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      opus: 'us.anthropic.claude-opus-4-6-v1',
      haiku: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    });
    const client = clientFromEnv(env, {}, { choice: plan.choice, cwd: dir, smallModel: plan.aliases.haiku });
    const s = session(client, env, plan.aliases.haiku);
    const before = await text('status', s);
    expect(before).toContain('Provider       Amazon Bedrock, region eu-west-1');
    expect(before).toContain(`Endpoint       ${front.url}`);
    expect(before).toContain('Credentials    AWS profile "team" (AWS_PROFILE)');
    expect(before).toContain('Model          us.anthropic.claude-sonnet-4-5-20250929-v1:0 (small: us.anthropic.claude-haiku-4-5-20251001-v1:0)');
    expect(before).toContain('Aliases        opus = us.anthropic.claude-opus-4-6-v1, sonnet = us.anthropic.claude-sonnet-4-5-20250929-v1:0');

    upstream.script(reply().text('hello from eu-west-1'));
    const answer = await askOnce(client, { model: plan.aliases.sonnet, prompt: 'hi' }, new AbortController().signal);
    expect(answer.text).toBe('hello from eu-west-1');
    expect(front.requests.map((q) => [q.accessKeyId, q.refused])).toEqual([['AKIDSTATUS', undefined]]);
    expect(await text('status', s)).toContain('Credentials    profile "team" (~/.aws/credentials or ~/.aws/config)');
    expect(await text('doctor', s)).toContain('✓ Amazon Bedrock at');
  });

  it("on Anthropic's API, names the key the requests carry", async () => {
    const env = { ANTHROPIC_AUTH_TOKEN: 'tok', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    const plan = useProvider(env, {});
    const client = clientFromEnv(env, {}, { choice: plan.choice, cwd: dir, smallModel: plan.aliases.haiku });
    const status = await text('status', session(client, env, plan.aliases.haiku));
    expect(status).toContain('Provider       Anthropic API');
    expect(status).toContain('Credentials    ANTHROPIC_AUTH_TOKEN');
    expect(status).toContain('Aliases        opus = claude-opus-4-7, sonnet = claude-sonnet-4-6, haiku = claude-haiku-4-5');
  });
});
