/**
 * A representative set of the path tricks through the built binary (`npm run build` first), with
 * `--dangerously-skip-permissions` so the deny rules in the project's settings are the only guard:
 * Grep, Glob and Read over aliases of the project, home and denied files, @-mentions, an MCP
 * filesystem server over stdio, and a sub-agent. Each run asserts that no request the fake API
 * received holds a denied file's content or name, and that the harmless files were still found.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT, runCli } from '../support/run-cli.js';
import { trustFolder } from '../support/tmp-project.js';
import { assertNoLeak } from './paths-harness.js';
import { DENY_RULES, makeWorld, type World } from './paths-world.js';

const FILE_SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-file-server.mjs');

let w: World;
let api: FakeAnthropic;

beforeAll(async () => {
  w = makeWorld();
  mkdirSync(w.p('.claude'), { recursive: true });
  writeFileSync(w.p('.claude/settings.json'), JSON.stringify({ permissions: { deny: DENY_RULES } }));
  writeFileSync(w.p('.mcp.json'), JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [FILE_SERVER] } } }));
  await trustFolder(w.home, w.project);
});
afterAll(() => w.cleanup());
beforeEach(async () => {
  api = await startFakeAnthropic();
  // Earlier runs' transcripts hold earlier prompts; searches of the home folder would find them.
  for (const dir of ['.wicket', '.claude/projects']) rmSync(path.join(w.home, dir), { recursive: true, force: true });
});
afterEach(async () => {
  await api.close();
});

type Call = [name: string, input: Record<string, unknown>];

/** One run: the model makes `calls` in one message, then ends. Returns everything the API received. */
async function run(route: string, calls: Call[], prompt = 'look around'): Promise<string> {
  let builder = reply();
  calls.forEach(([name, input], i) => (builder = builder.toolUse(name, input, { id: `toolu_${i}` })));
  api.script(builder, reply().text('done'));
  const first = api.requests.length;
  const r = await runCli(['-p', prompt, '--dangerously-skip-permissions', '--output-format', 'json'], {
    cwd: w.project,
    home: w.home,
    baseUrl: api.url,
    timeoutMs: 40_000,
  });
  expectExit(r, 0);
  const sent = JSON.stringify(api.requests.slice(first).map((q) => q.body));
  // The mentions the person typed are theirs: only what wicket attached for them counts.
  assertNoLeak(route, { prompt, words: prompt.split(/\s+/).map((m) => m.replace(/^@"?|"?[.,]?$/g, '')), calls }, sent);
  return sent;
}

describe('end to end, through the built binary', () => {
  it('Grep over aliases of the project, a folder above it and the home folder', async () => {
    const sent = await run('Grep aliases', [
      ['Grep', { pattern: 'TOKEN', path: '/proc/self/cwd', output_mode: 'content' }],
      ['Grep', { pattern: 'TOKEN', path: '/proc/self/cwd', output_mode: 'count' }],
      ['Grep', { pattern: 'TOKEN', path: '..', output_mode: 'content' }],
      ['Grep', { pattern: 'TOKEN', path: w.root, output_mode: 'files_with_matches' }],
      ['Grep', { pattern: 'TOKEN', path: path.join(w.outside, 'link-to-project'), output_mode: 'content', '-C': 3 }],
      ['Grep', { pattern: 'TOKEN', path: w.home, output_mode: 'content' }],
      ['Grep', { pattern: 'TOKEN', path: '~', output_mode: 'files_with_matches' }],
      ['Grep', { pattern: 'TOKEN', path: `/proc/self/root${w.project}`, output_mode: 'content' }],
      ['Grep', { pattern: 'TOKEN', path: w.outside, output_mode: 'content' }],
      ['Grep', { pattern: 'TOKEN', path: 'innocent', output_mode: 'content' }],
    ]);
    for (const control of ['PUBLIC_OK', 'PUBLIC_HOME', 'PUBLIC_OUTSIDE', 'PUBLIC_SRC']) expect(sent).toContain(control);
  });

  it('Glob over aliases, and with the root inside the pattern', async () => {
    const sent = await run('Glob aliases', [
      ['Glob', { pattern: '**/*', path: '..' }],
      ['Glob', { pattern: '/proc/self/cwd/**/*' }],
      ['Glob', { pattern: '**/*', path: path.join(w.outside, 'link-to-project') }],
      ['Glob', { pattern: '~/**/*' }],
      ['Glob', { pattern: `${w.outside}/**/*` }],
      ['Glob', { pattern: '**/zq9*', path: w.root }],
    ]);
    for (const control of ['ok.txt', 'notes.txt', 'pub.txt']) expect(sent).toContain(control);
  });

  it('Read of a denied file through links, /proc, .., a hard link and the home folder', async () => {
    const sent = await run('Read spellings', [
      ['Read', { file_path: '/proc/self/cwd/secret/zq9-key.txt' }],
      ['Read', { file_path: 'innocent/zq9-key.txt' }],
      ['Read', { file_path: 'public/link-to-key.txt' }],
      ['Read', { file_path: path.join(w.outside, 'link-to-key.txt') }],
      ['Read', { file_path: path.join(w.outside, 'hard-zq9.txt') }],
      ['Read', { file_path: `/proc/self/root${w.project}/secret/nested/zq9-deep.txt` }],
      ['Read', { file_path: '~/.ssh/id_rsa' }],
      ['Read', { file_path: path.join(w.homeLink, '.ssh', 'id_rsa') }],
      ['Read', { file_path: 'cafe\u0301/zq9-nfd.txt' }],
      ['Read', { file_path: '/proc/self/cwd/public/ok.txt' }],
    ]);
    expect(sent).toContain('PUBLIC_OK');
  });

  it('@-mentions of denied files, however spelled, attach nothing of them', async () => {
    const mentions = [
      '@secret/zq9-key.txt',
      '@/proc/self/cwd/secret/zq9-key.txt',
      '@innocent/zq9-key.txt',
      '@public/link-to-key.txt',
      `@${path.join(w.outside, 'hard-zq9.txt')}`,
      '@~/.ssh/id_rsa',
      '@.env',
      `@/proc/self/root${w.project}/secret/zq9-key.txt`,
      '@public/../secret/zq9-key.txt',
      '@public/ok.txt',
    ];
    const sent = await run('mentions', [], `look at ${mentions.join(' ')}`);
    expect(sent).toContain('PUBLIC_OK');
    const more = [
      `@${path.join(w.outside, 'link-to-key.txt')}`,
      `@"${w.project}//secret//zq9-key.txt"`,
      '@cafe\u0301/zq9-nfd.txt',
      '@MixedCase/zq9-case.txt',
      '@certs/zq9-server.pem',
      `@${path.join(w.homeLink, '.ssh', 'id_rsa')}`,
      `@${path.join(w.outside, 'link-to-secret', 'nested', 'zq9-deep.txt')}`,
      '@sub/.env,',
      '@./secret/zq9-key.txt.',
      '@src/main.ts',
    ];
    const sent2 = await run('mentions 2', [], `and at ${more.join(' ')}`);
    expect(sent2).toContain('PUBLIC_SRC');
  });

  it('an MCP filesystem server over stdio is held to the deny rules', async () => {
    const sent = await run('MCP', [
      ['mcp__files__read_file', { path: 'secret/zq9-key.txt' }],
      ['mcp__files__read_file', { path: '/proc/self/cwd/secret/zq9-key.txt' }],
      ['mcp__files__read_file', { path: path.join(w.outside, 'hard-zq9.txt') }],
      ['mcp__files__read_uri', { uri: `file://${w.home}/.ssh/id_rsa` }],
      ['mcp__files__read_many', { paths: ['public/ok.txt', 'innocent/zq9-key.txt'] }],
      ['mcp__files__inspect', { options: { deep: [{ filename: '.env' }] } }],
      ['mcp__files__copy_file', { source: 'secret/zq9-key.txt', destination: 'public/stolen.txt' }],
      ['mcp__files__read_file', { path: 'public/ok.txt' }],
    ]);
    expect(sent).toContain('PUBLIC_OK');
  });

  it('a sub-agent’s searches obey the same rules', async () => {
    api.script(
      reply().toolUse('Agent', { description: 'look for tokens', prompt: 'grep for TOKEN everywhere' }, { id: 'toolu_agent' }),
      reply()
        .toolUse('Grep', { pattern: 'TOKEN', path: '/proc/self/cwd', output_mode: 'content' }, { id: 'toolu_s1' })
        .toolUse('Grep', { pattern: 'TOKEN', path: '..', output_mode: 'content' }, { id: 'toolu_s2' })
        .toolUse('Read', { file_path: 'innocent/zq9-key.txt' }, { id: 'toolu_s3' }),
      reply().text('sub-agent report'),
      reply().text('done'),
    );
    const r = await runCli(['-p', 'delegate', '--dangerously-skip-permissions'], { cwd: w.project, home: w.home, baseUrl: api.url, timeoutMs: 40_000 });
    expectExit(r, 0);
    const sent = JSON.stringify(api.requests.map((q) => q.body));
    assertNoLeak('sub-agent', { p: 'innocent/zq9-key.txt' }, sent);
    expect(sent).toContain('PUBLIC_OK');
    expect(sent).toContain('sub-agent report');
  });

  it('wicket’s own snapshots of the project, which hold the denied files too, are denied with them', async () => {
    const snapshots = path.join(w.home, '.wicket', 'snapshots');
    const calls: Call[] = [
      ['Write', { file_path: 'public/new.txt', content: 'x' }],
      ['Bash', { command: `cd ${snapshots}/*/ && git log -p --all` }],
      ['Bash', { command: `git -C "$(ls -d ${snapshots}/*/ | head -1)" cat-file --batch-all-objects --batch` }],
      ['Bash', { command: `grep -ra TOKEN ${path.join(w.home, '.wicket')}` }],
      ['Grep', { pattern: 'TOKEN', path: snapshots, output_mode: 'content' }],
      ['Glob', { pattern: '**/*', path: snapshots }],
    ];
    api.script(...calls.map(([name, input], i) => reply().toolUse(name, input, { id: `toolu_s${i}` })), reply().text('done'));
    const first = api.requests.length;
    const r = await runCli(['-p', 'snapshots', '--dangerously-skip-permissions'], { cwd: w.project, home: w.home, baseUrl: api.url, timeoutMs: 40_000 });
    expectExit(r, 0);
    const sent = JSON.stringify(api.requests.slice(first).map((q) => q.body));
    expect(sent.match(/denied by the rule Read\(\/\/[^)]*\/\.wicket\/snapshots\/\*\*\)/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(sent).not.toContain('SECRET_CONTENT');
    // The control: the snapshot does hold the denied files' content.
    const shadow = readdirSync(snapshots).filter((d) => !d.startsWith('.'));
    const history = execFileSync('git', ['--git-dir', path.join(snapshots, shadow[0]!), 'log', '-p', '--all'], { encoding: 'utf8' });
    expect(history).toContain('SECRET_CONTENT_env');
  });

  it('the git status in the system prompt names no denied file (runs last: it makes the project a repository)', async () => {
    execFileSync('git', ['init', '-q'], { cwd: w.project });
    const sent = await run('git status', []);
    const system = JSON.stringify(api.requests.at(-1)!.body).match(/Git status:[^<]*/)?.[0] ?? '';
    expect(system).toContain('public/');
    expect(system).not.toMatch(/secret\/|innocent|\.env|MixedCase|caf/);
    expect(sent).toContain('Git status');
  });
});
