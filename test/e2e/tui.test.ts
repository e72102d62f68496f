/**
 * End to end in a real terminal (tmux) against the fake Messages API: the built binary, typed at as a
 * person would. Skipped, with the reason, when tmux is not installed.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../src/tools/registry.js';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { cliEnv, REPO_ROOT } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { ensureBuilt, hasTmux, startTui, type Tui } from './tui-driver.js';

const TMUX = hasTmux();
const HAS_BASH = BUILTIN_TOOLS.some((t) => t.name === 'Bash');
if (!TMUX) console.warn('test/e2e/tui.test.ts: skipped: tmux is not installed (apt-get install -y tmux)');

const READY = 'shift+tab to cycle';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(files: Record<string, string> = {}, settings?: object): Promise<{ project: TmpProject; server: FakeAnthropic }> {
  const project = await makeTmpProject({ files, ...(settings ? { settings } : {}) });
  const server = await startFakeAnthropic();
  cleanups.push(
    () => project.cleanup(),
    () => server.close(),
  );
  return { project, server };
}

function open(
  project: TmpProject,
  server: FakeAnthropic | undefined,
  extra: { args?: string[]; env?: Record<string, string | undefined>; bin?: string } = {},
): Tui {
  const tui = startTui({ cwd: project.dir, home: project.home, ...(server ? { baseUrl: server.url } : {}), ...extra });
  cleanups.push(() => tui.close());
  return tui;
}

async function ask(tui: Tui, text: string): Promise<void> {
  await tui.waitFor(READY);
  tui.type(text);
  await tui.waitFor(text);
  tui.press('Enter');
}

/** The text of every tool_result in the last request. */
function lastToolResults(server: FakeAnthropic): string {
  const req = server.messageRequests().at(-1)!;
  return JSON.stringify(req.body.messages?.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [])));
}

describe.skipIf(!TMUX)('wicket in a terminal', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('streams the answer to a typed prompt', async () => {
    const { project, server } = await setup();
    server.script(reply().text('Streaming ').delay(300).text('the **answer**.\n\n- one\n- two'));
    const tui = open(project, server);
    await ask(tui, 'say something');
    const screen = await tui.waitFor('- two');
    expect(screen).toContain('❯ say something');
    expect(screen).toContain('● Streaming the answer.');
    await tui.waitFor(/Ask wicket to do something/);
    server.assertNoViolations();
  });

  it('approves an edit with 1: the diff is shown and the file changes', async () => {
    const { project, server } = await setup({ 'a.txt': 'one\ntwo\nthree\n' });
    const file = project.path('a.txt');
    server.script(
      reply().toolUse('Read', { file_path: file }),
      reply().toolUse('Edit', { file_path: file, old_string: 'two', new_string: 'TWO' }),
      reply().text('Edited the file.'),
    );
    const tui = open(project, server);
    await ask(tui, 'make two loud');
    const dialog = await tui.waitFor('Do you want to make this edit to a.txt?');
    expect(dialog).toMatch(/2 - two/);
    expect(dialog).toMatch(/2 \+ TWO/);
    tui.press('1');
    const done = await tui.waitFor('● Edited the file.');
    expect(done).toContain('Edit(a.txt)');
    expect(done).toMatch(/2 \+ TWO/);
    expect(await project.read('a.txt')).toBe('one\nTWO\nthree\n');
    server.assertNoViolations();
  });

  it('"Yes, and don\'t ask again" writes the rule to .claude/settings.local.json', async () => {
    const { project, server } = await setup({ 'a.txt': 'one\ntwo\nthree\n' });
    const file = project.path('a.txt');
    server.script(
      reply().toolUse('Read', { file_path: file }),
      reply().toolUse('Edit', { file_path: file, old_string: 'two', new_string: 'TWO' }),
      reply().toolUse('Edit', { file_path: file, old_string: 'three', new_string: 'THREE' }),
      reply().text('Both edits made.'),
    );
    const tui = open(project, server);
    await ask(tui, 'two edits please');
    await tui.waitFor("2. Yes, and don't ask again");
    tui.press('2');
    await tui.waitFor('● Both edits made.');
    const local = JSON.parse(readFileSync(project.path('.claude/settings.local.json'), 'utf8'));
    expect(local.permissions.allow).toHaveLength(1);
    expect(local.permissions.allow[0]).toMatch(/^Edit/);
    expect(await project.read('a.txt')).toBe('one\nTWO\nTHREE\n');
    expect(tui.history()).toContain("Won't ask again for");
  });

  it.skipIf(!HAS_BASH)('at a Bash prompt, ←/→ picks where "don\'t ask again" keeps its rule: ← then Enter writes it to .claude/settings.json', async () => {
    const { project, server } = await setup({ 'a.txt': 'one\n' });
    server.script(reply().toolUse('Bash', { command: 'mkdir -p out/logs' }), reply().text('Made the folder.'));
    const tui = open(project, server);
    await ask(tui, 'make the log folder');
    await tui.waitFor("2. Yes, and don't ask again for Bash(mkdir");
    tui.press('Down');
    const chosen = await tui.waitFor('←/→ where:');
    expect(chosen).toContain('(saved to .claude/settings.local.json)');
    await tui.waitFor('It would never allow a compound (mkdir');
    tui.press('Left');
    await tui.waitFor('(saved to .claude/settings.json)');
    tui.press('Enter');
    await tui.waitFor('● Made the folder.');
    const shared = JSON.parse(readFileSync(project.path('.claude/settings.json'), 'utf8'));
    expect(shared.permissions.allow).toEqual([expect.stringMatching(/^Bash\(mkdir/)]);
    expect(() => readFileSync(project.path('.claude/settings.local.json'), 'utf8')).toThrow();
    expect(readdirSync(project.path('out'))).toEqual(['logs']);
  });

  it('"No" with a reason stops the turn ("Rejected update to a.txt"); the reason is the next prompt', async () => {
    const { project, server } = await setup({ 'a.txt': 'one\ntwo\n' });
    const file = project.path('a.txt');
    server.script(
      reply().toolUse('Read', { file_path: file }),
      reply().toolUse('Edit', { file_path: file, old_string: 'two', new_string: 'TWO' }),
      reply().text('Understood, I will leave it.'),
    );
    const tui = open(project, server);
    await ask(tui, 'edit it');
    await tui.waitFor('3. No, and tell wicket');
    tui.press('3');
    await tui.waitFor('What should wicket do instead?');
    tui.type('leave the file alone');
    await tui.waitFor('leave the file alone');
    tui.press('Enter');
    const screen = await tui.waitFor('● Understood, I will leave it.');
    expect(screen).toContain('Rejected update to a.txt');
    expect(screen).toContain('❯ leave the file alone');
    expect(server.messageRequests()).toHaveLength(3);
    expect(lastToolResults(server)).toContain('STOP what you are doing');
    const last = server.messageRequests().at(-1)!.body.messages!.at(-1)!;
    expect(JSON.stringify(last.content)).toMatch(/"text":"leave the file alone"/);
    expect(await project.read('a.txt')).toBe('one\ntwo\n');
  });

  it('Esc interrupts an answer while it streams, and the next prompt works', async () => {
    const { project, server } = await setup();
    const slow = reply().text('Counting:');
    for (let i = 1; i <= 60; i++) slow.delay(200).text(` ${i}`);
    server.script(slow, reply().text('Fresh start.'));
    const tui = open(project, server);
    await ask(tui, 'count slowly');
    await tui.waitFor('Counting: 1 2');
    tui.press('Escape');
    await tui.waitFor('Interrupted', 5000);
    await ask(tui, 'now answer');
    await tui.waitFor('● Fresh start.');
    expect(tui.screen()).not.toMatch(/Counting:[\d\s]* 60\b/); // the count, wrapped or not; not a 60 elsewhere on the screen
    server.assertNoViolations();
  });

  // A stream that stalls (the server sends nothing more) must not keep Esc from working: the app
  // gives the prompt back within a few seconds even if the stream never settles after the abort.
  it('Esc interrupts a stalled streaming answer and the next prompt works', async () => {
    const { project, server } = await setup();
    server.script(reply().text('Thinking about it').hang(), reply().text('Fresh start.'));
    const tui = open(project, server);
    await ask(tui, 'take your time');
    await tui.waitFor('● Thinking about it');
    tui.press('Escape');
    await tui.waitFor('Interrupted');
    await ask(tui, 'now answer');
    await tui.waitFor('● Fresh start.');
    server.assertNoViolations();
  });

  it.skipIf(!HAS_BASH)('Esc interrupts a long Bash call; the call gets its result and the session goes on', async () => {
    const { project, server } = await setup({}, { permissions: { allow: ['Bash(sleep:*)'] } });
    server.script(reply().toolUse('Bash', { command: 'sleep 30', description: 'wait a while' }), reply().text('Carrying on.'));
    const tui = open(project, server);
    await ask(tui, 'wait');
    await tui.waitFor('Bash(sleep 30)');
    tui.press('Escape');
    await tui.waitFor('Interrupted'); // the call says so only when Esc stopped it; left alone it runs 30 s and succeeds
    await ask(tui, 'go on');
    await tui.waitFor('● Carrying on.');
    expect(lastToolResults(server)).toContain('tool_result');
    server.assertNoViolations();
  });

  it('a prompt on the command line is sent at once; Ctrl-D on an empty line exits', async () => {
    const { project, server } = await setup();
    server.script(reply().text('Hello from the start.'));
    const tui = open(project, server, { args: ['say hello'] });
    await tui.waitFor('● Hello from the start.');
    await tui.waitFor(READY);
    tui.press('C-d');
    const screen = await tui.waitFor('[exited 0]');
    expect(screen).toContain('wicket --resume');
  });

  it("a fresh install gets a code cache for the app's bundle at its first frame, and print mode one for the main bundle", async () => {
    const { project, server } = await setup();
    // A copy of the built install, without the cache the other tests' runs wrote.
    const install = mkdtempSync(path.join(tmpdir(), 'wicket-install-'));
    cleanups.push(() => rmSync(install, { recursive: true, force: true }));
    cpSync(path.join(REPO_ROOT, 'bin'), path.join(install, 'bin'), { recursive: true });
    cpSync(path.join(REPO_ROOT, 'dist'), path.join(install, 'dist'), { recursive: true, filter: (src) => path.basename(src) !== '.cache' });
    cpSync(path.join(REPO_ROOT, 'package.json'), path.join(install, 'package.json'));
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(install, 'node_modules'));
    const cacheDir = path.join(install, 'dist', 'cli', '.cache');
    const sidecar = (flavor: RegExp) => JSON.parse(readFileSync(path.join(cacheDir, readdirSync(cacheDir).find((f) => flavor.test(f))!), 'utf8'));
    // The app runs app.cjs (main and the app) from a cache of its own; print mode runs main.cjs.
    const APP = /^app-[0-9a-f]+-app\.v8cache\.json$/;
    const PRINT = /^main-[0-9a-f]+\.v8cache\.json$/;
    // On a slow machine the model's answer can wait long enough for the Bash parser's warm-up to load (warm-up.ts);
    // the project's settings file brings the schema's checker (settings-schema, zod) in as well.
    const mine = (m: string) => !/tree-sitter|settings-schema|zod/.test(m);

    const tui = open(project, server, { bin: path.join(install, 'bin', 'wicket.js') });
    await tui.waitFor(READY);
    tui.press('C-d');
    await tui.waitFor('[exited 0]');
    expect(sidecar(APP).filter(mine)).toEqual(['(interactive mode)']);
    expect(readdirSync(cacheDir).some((f) => PRINT.test(f) || /^main-/.test(f))).toBe(false);

    server.script(reply().text('ok'));
    const env = cliEnv({ home: project.home, baseUrl: server.url });
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [path.join(install, 'bin', 'wicket.js'), '-p', 'hi'], { cwd: project.dir, env }, (err) => (err ? reject(err) : resolve())),
    );
    expect(sidecar(PRINT).filter(mine)).toEqual(['(print mode)']);
    expect(sidecar(APP).filter(mine)).toEqual(['(interactive mode)']);
  });

  it('a run the entry took for print mode that opens the app after all gets the app from its bundle', async () => {
    const { project, server } = await setup();
    // --output-format makes the entry run the main bundle, which holds no app; stdin is a terminal, so the app opens.
    const tui = open(project, server, { args: ['--output-format', 'text'] });
    await tui.waitFor(READY);
    tui.press('C-d');
    await tui.waitFor('[exited 0]');
  });

  it('without an API key it says what to set, not a stack trace', async () => {
    const { project } = await setup();
    const tui = open(project, undefined, { env: { ANTHROPIC_API_KEY: undefined } });
    const screen = await tui.waitFor('[exited 1]');
    expect(screen).toContain('wicket cannot start');
    expect(screen).toContain('ANTHROPIC_API_KEY');
    expect(screen).not.toMatch(/at .*\.js:\d+/);
  });

  it('/context, /export and /effort work in the app', async () => {
    const { project, server } = await setup();
    server.script(reply().text('Hello there.'));
    const tui = open(project, server);
    await ask(tui, 'hi');
    await tui.waitFor('Hello there.');
    await ask(tui, '/context');
    await tui.waitFor(/Context [█░]+ \d+% of 200\.0k/);
    await ask(tui, '/export talk.txt');
    await tui.waitFor('Conversation saved to');
    expect(readFileSync(path.join(project.dir, 'talk.txt'), 'utf8')).toContain('Hello there.');
    await ask(tui, '/effort high');
    await tui.waitFor('Effort set to high');
    server.script(reply().text('again'));
    await ask(tui, 'once more');
    await tui.waitFor('again');
    expect((server.messageRequests().at(-1)!.body as { output_config?: unknown }).output_config).toEqual({ effort: 'high' });
  });
});
