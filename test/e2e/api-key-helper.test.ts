/**
 * apiKeyHelper end to end: the helper's key reaches the API as `x-api-key` and as a bearer token;
 * it runs once at the start, again when the key is older than CLAUDE_CODE_API_KEY_HELPER_TTL_MS or
 * refused (401); a failing or slow helper stops the run with a sentence, before any request; the
 * variables win over it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

let server: FakeAnthropic;
let project: TmpProject;

/** A helper that counts its runs in `<home>/runs` and prints key-<run number>. */
const COUNTING_HELPER = 'n=$(($(cat "$HOME/runs" 2>/dev/null || echo 0) + 1)); echo $n > "$HOME/runs"; echo "key-$n"';

function runs(): number {
  const file = `${project.home}/runs`;
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : 0;
}

async function withHelper(helper: string): Promise<void> {
  project = await makeTmpProject({ files: { 'a.txt': 'alpha\n' }, userSettings: { apiKeyHelper: helper } });
}

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  server.requests.length = 0;
  await project?.cleanup();
});

const noKey = { ANTHROPIC_API_KEY: undefined };

describe('apiKeyHelper', () => {
  it("sends the helper's key as x-api-key and bearer token, running it once for the whole run", async () => {
    await withHelper(COUNTING_HELPER);
    server.script(reply().toolUse('Read', { file_path: project.path('a.txt') }), reply().text('done reading'));
    const r = expectExit(
      await runCli(['-p', 'read a.txt', '--allowedTools', 'Read'], { cwd: project.dir, home: project.home, baseUrl: server.url, env: noKey }),
      0,
    );
    expect(r.stdout).toContain('done reading');
    expect(server.requests.map((q) => [q.headers['x-api-key'], q.headers.authorization])).toEqual([
      ['key-1', 'Bearer key-1'],
      ['key-1', 'Bearer key-1'],
    ]);
    expect(runs()).toBe(1);
    expect(r.stderr).not.toContain('key-1');
  });

  it('runs the helper again once its key is older than CLAUDE_CODE_API_KEY_HELPER_TTL_MS', async () => {
    await withHelper(COUNTING_HELPER);
    server.script(
      reply()
        .toolUse('Read', { file_path: project.path('a.txt') })
        .delay(50),
      reply().text('done'),
    );
    const env = { ...noKey, CLAUDE_CODE_API_KEY_HELPER_TTL_MS: '1' };
    expectExit(await runCli(['-p', 'read a.txt', '--allowedTools', 'Read'], { cwd: project.dir, home: project.home, baseUrl: server.url, env }), 0);
    expect(server.requests.map((q) => q.headers['x-api-key'])).toEqual(['key-1', 'key-2']);
  });

  it('runs the helper again when the API refuses its key (401), and sends the new one', async () => {
    await withHelper(COUNTING_HELPER);
    server.script(reply().error(401, { message: 'invalid x-api-key' }), reply().text('welcome back'));
    const r = expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, baseUrl: server.url, env: noKey }), 0);
    expect(r.stdout).toContain('welcome back');
    expect(server.requests.map((q) => q.headers['x-api-key'])).toEqual(['key-1', 'key-2']);
  });

  it('stops before any request when the helper fails, prints nothing, or is too slow', async () => {
    await withHelper('echo "key-that-must-not-show"; echo "vault is locked" >&2; exit 3');
    const failed = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, baseUrl: server.url, env: noKey });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('apiKeyHelper failed (exit code 3): vault is locked');
    expect(failed.stderr).not.toContain('key-that-must-not-show');
    await project.cleanup();
    await withHelper('true');
    const empty = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, baseUrl: server.url, env: noKey });
    expect(empty.stderr).toContain('apiKeyHelper printed no key');
    await project.cleanup();
    await withHelper('sleep 30; echo late-key');
    const started = Date.now();
    const slow = await runCli(['-p', 'hi'], {
      cwd: project.dir,
      home: project.home,
      baseUrl: server.url,
      env: { ...noKey, WICKET_API_KEY_HELPER_TIMEOUT_MS: '400' },
    });
    expect(slow.code).not.toBe(0);
    expect(slow.stderr).toContain('apiKeyHelper did not finish within 400 ms');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(server.requests).toEqual([]);
  });

  it('is not run when ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN is set', async () => {
    await withHelper(COUNTING_HELPER);
    expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, baseUrl: server.url }), 0);
    expectExit(await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, baseUrl: server.url, env: { ...noKey, ANTHROPIC_AUTH_TOKEN: 'token' } }), 0);
    expect(runs()).toBe(0);
    expect(server.requests.map((q) => q.headers['x-api-key'] ?? q.headers.authorization)).toEqual(['test-key', 'Bearer token']);
    const config = expectExit(await runCli(['config'], { cwd: project.dir, home: project.home, env: noKey }), 0).stdout;
    expect(config).toMatch(/Model provider: Anthropic API\n\s+endpoint\s+http:\/\/127\.0\.0\.1:9\n\s+credentials\s+apiKeyHelper \(settings\)/);
  });
});
