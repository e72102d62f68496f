/**
 * The everyday commands in a real terminal (tmux): /diff shows what changed file by file (outside git, what the session changed), /copy puts
 * an answer on the clipboard (a fake xclip on the PATH), /btw answers a side question that the next
 * request does not carry, /review sends its built-in prompt, /terminal-setup says what it can set up.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { lastUserText, openApp, pause, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();

/** A fake xclip that keeps what it is given in a file. */
function fakeXclip(): { env: Record<string, string>; copied: () => string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-clip-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'xclip'), `#!/bin/sh\ncat > '${dir}/copied'\n`);
  chmodSync(path.join(dir, 'xclip'), 0o755);
  return { env: { PATH: `${dir}:${process.env.PATH}`, DISPLAY: ':0' }, copied: () => readFileSync(path.join(dir, 'copied'), 'utf8') };
}

describe.skipIf(!hasTmux())('everyday commands', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('/diff lists the changed and new files with the diff; /copy and /copy 2 copy answers through xclip', async () => {
    const clip = fakeXclip();
    const { project, api, tui } = await openApp(cleanups, { git: true, files: { 'a.txt': 'one\n' } }, { env: clip.env, rows: 50 });
    const g = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: project.dir, stdio: 'ignore' });
    g('add', '.');
    g('commit', '-qm', 'start');
    writeFileSync(path.join(project.dir, 'a.txt'), 'one\ntwo\n');
    writeFileSync(path.join(project.dir, 'b.txt'), 'new\n');
    await send(tui, '/diff');
    await tui.waitFor('+two');
    expect(tui.screen()).toContain('a.txt');
    expect(tui.screen()).toMatch(/New files not yet tracked:\s+b\.txt/);
    api.script(reply().text('First answer.'), reply().text('Second answer.'));
    await send(tui, 'one');
    await tui.waitFor('● First answer.');
    await send(tui, 'two');
    await tui.waitFor('● Second answer.');
    await send(tui, '/copy');
    await tui.waitFor('to the clipboard (xclip)');
    expect(clip.copied()).toBe('Second answer.');
    await send(tui, '/copy 2');
    await tui.waitFor('answer 2 from the end');
    expect(clip.copied()).toBe('First answer.');
  });

  it('/diff outside git shows what the session changed, from its own snapshots', async () => {
    const { project, api, tui } = await openApp(cleanups, { files: { 'a.txt': 'one\n' } }, { rows: 50 });
    api.script(reply().toolUse('Write', { file_path: path.join(project.dir, 'b.txt'), content: 'three\n' }), reply().text('Written.'));
    await send(tui, 'add b');
    await tui.waitFor('Do you want to');
    tui.type('1');
    await tui.waitFor('● Written.');
    await send(tui, '/diff');
    await tui.waitFor('+three');
    expect(tui.screen()).toContain('Changed in this session (not a git repository');
    expect(tui.screen()).toContain('b.txt  new');
    expect(tui.screen()).not.toContain('a.txt');
  });

  it('/btw answers beside the conversation: the next request carries neither; /review sends its prompt; /terminal-setup names the keys', async () => {
    const { api, tui } = await openApp(cleanups, {}, { rows: 50 });
    api.script(reply().text('Main answer.'), reply().text('It is 42.'), reply().text('Back to work.'), reply().text('Looks fine.'));
    await send(tui, 'hello');
    await tui.waitFor('● Main answer.');
    await send(tui, '/btw what is the answer?');
    await tui.waitFor('It is 42.');
    await send(tui, 'go on');
    await tui.waitFor('● Back to work.');
    const third = JSON.stringify(api.messageRequests()[2]!.body.messages);
    expect(third).not.toContain('what is the answer?');
    expect(third).not.toContain('It is 42.');
    expect(JSON.stringify(api.messageRequests()[1]!.body.tools ?? [])).toBe('[]');
    await send(tui, '/review');
    await tui.waitFor('● Looks fine.');
    expect(lastUserText(api)).toContain('expert code reviewer');
    await send(tui, '/terminal-setup');
    await tui.waitFor("Terminal setup can't configure this terminal");
    await pause(100);
  });
});
