/**
 * Bash end to end through the BUILT binary (`npm run build` first): the fake Messages API asks for
 * Bash calls; the rules in .claude/settings.json decide; print mode refuses what would ask.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT, runCli } from '../../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../../support/tmp-project.js';

let api: FakeAnthropic;
let project: TmpProject | undefined;

beforeAll(() => {
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'entry.cjs'))) execFileSync(process.execPath, ['build.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
});
beforeEach(async () => {
  api = await startFakeAnthropic();
});
afterEach(async () => {
  await api.close();
  await project?.cleanup();
  project = undefined;
});

async function run(settings: object, files: Record<string, string> = {}, args: string[] = []) {
  project = await makeTmpProject({ settings, files });
  const r = await runCli(['-p', 'go', '--output-format', 'json', ...args], { cwd: project.dir, home: project.home, baseUrl: api.url, timeoutMs: 30_000 });
  expectExit(r, 0);
  api.assertNoViolations();
  return r;
}

/** The tool_result blocks the model received in the last request, in order. */
function toolResults(): Array<{ content: string; is_error?: boolean }> {
  const out: Array<{ content: string; is_error?: boolean }> = [];
  for (const m of api.messageRequests().at(-1)?.body.messages ?? []) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
      out.push({ content: text, ...(b.is_error ? { is_error: true } : {}) });
    }
  }
  return out;
}

describe('Bash through the CLI', () => {
  it('runs read-only commands without a rule and carries a cd over to the next call', async () => {
    api.script(
      reply().toolUse('Bash', { command: 'mkdir -p sub && cd sub && echo made' }),
      reply().toolUse('Bash', { command: 'pwd && ls ..' }),
      reply().text('done'),
    );
    await run({ permissions: { allow: ['Bash(mkdir *)'] } }, { 'a.txt': 'x' });
    const [first, second] = toolResults();
    expect(first).toEqual({ content: 'made' });
    expect(second!.content).toBe(`${project!.path('sub')}\na.txt\nsub`);
  });

  it('refuses in print mode what would ask, and says so to the model', async () => {
    api.script(reply().toolUse('Bash', { command: 'touch made-by-model' }), reply().text('could not'));
    await run({});
    expect(toolResults()[0]).toMatchObject({ is_error: true });
    expect(project!.exists('made-by-model')).toBe(false);
  });

  it('holds a deny rule in bypass mode against a command hidden in sh -c', async () => {
    api.script(reply().toolUse('Bash', { command: "sh -c 'rm victim.txt'" }), reply().text('denied'));
    await run({ permissions: { deny: ['Bash(rm:*)'] } }, { 'victim.txt': 'keep me' }, ['--dangerously-skip-permissions']);
    const [result] = toolResults();
    expect(result).toMatchObject({ is_error: true });
    expect(result!.content).toContain('Bash(rm:*)');
    expect(project!.exists('victim.txt')).toBe(true);
  });

  it('reports a failing command with its exit code', async () => {
    api.script(reply().toolUse('Bash', { command: 'echo oops >&2; exit 2' }), reply().text('it failed'));
    await run({ permissions: { allow: ['Bash(echo *)', 'Bash(exit *)'] } });
    expect(toolResults()[0]).toEqual({ content: 'oops\nExit code 2', is_error: true });
  });
});
