/**
 * What was wrong in the app, in a real terminal (tmux): "No" at a permission prompt stops the turn,
 * /help keeps its columns at 80 columns, the trust dialog leaves nothing behind, Markdown bullets
 * and code spans, and a refused connection says it retries.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach, ensureBuilt, hasTmux, startTui } from './tui-driver.js';
import { openApp, reply, send, pause, READY } from './tui-habits-support.js';
import { makeTmpProject } from '../support/tmp-project.js';

const cleanups = cleanupsAfterEach();

describe.skipIf(!hasTmux())('the app as a Claude Code user expects it', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('Esc at a permission prompt stops the turn: "Rejected update to a.txt", no more requests, the prompt is back', async () => {
    const { project, api, tui } = await openApp(cleanups, { files: { 'a.txt': 'one\ntwo\n' } });
    const file = project.path('a.txt');
    api.script(
      reply().toolUse('Read', { file_path: file }),
      reply().toolUse('Edit', { file_path: file, old_string: 'two', new_string: 'TWO' }),
      reply().text('Done: it says TWO now.'),
    );
    await send(tui, 'make two loud');
    await tui.waitFor('Do you want to make this edit to a.txt?');
    tui.press('Escape');
    const screen = await tui.waitFor('Rejected update to a.txt');
    await tui.waitFor(/Ask wicket to do something/);
    await pause(500);
    expect(api.messageRequests()).toHaveLength(2);
    expect(tui.screen()).not.toContain('Done: it says TWO');
    expect(screen).not.toContain('Interrupted');
    expect(await project.read('a.txt')).toBe('one\ntwo\n');
  });

  it('a deny rule still tells the model, and the turn goes on', async () => {
    const { project, api, tui } = await openApp(cleanups, { files: { 'a.txt': 'one\n' }, settings: { permissions: { deny: ['Edit'] } } });
    api.script(reply().toolUse('Write', { file_path: project.path('b.txt'), content: 'x' }), reply().text('The rules forbid it.'));
    await send(tui, 'write b');
    await tui.waitFor('● The rules forbid it.');
    expect(api.messageRequests()).toHaveLength(2);
    expect(JSON.stringify(api.messageRequests()[1]!.body.messages)).toContain('denied by the rule Edit');
    expect(project.exists('b.txt')).toBe(false);
    expect(await project.read('a.txt')).toBe('one\n');
  });

  it('/help keeps its columns at 80 columns, whatever the length of a command name', async () => {
    const long = 'a-command-with-a-very-long-name-indeed';
    const { tui } = await openApp(
      cleanups,
      { files: { [`.claude/commands/${long}.md`]: '---\ndescription: Does the long thing and explains at length what it does\n---\nDo it' } },
      { columns: 80, rows: 120 },
    );
    await send(tui, '/help');
    const screen = await tui.waitFor(`/${long}`);
    const lines = screen.split('\n');
    const i = lines.findIndex((l) => l.includes(`/${long}`));
    expect(lines[i + 1]).toMatch(/^ {20,}Does the long thing/);
    expect(lines.find((l) => l.includes('/clear'))).toMatch(/^ {2}\/clear +Start a new conversation/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // No description wraps back to the first column.
    const body = lines.slice(lines.indexOf('Commands') + 1, lines.indexOf('Keys'));
    for (const l of body) if (l.trim() && l !== 'Custom commands') expect(l).toMatch(/^ {2}/);
  });

  it('the trust dialog has no stray space where a line wraps, and leaves nothing behind once answered', async () => {
    const project = await makeTmpProject({ trusted: false, files: {} });
    cleanups.push(() => project.cleanup());
    // At 120 columns a word of the dialog ends exactly at its edge: the next row starts with the next word, not a space.
    const tui = startTui({ cwd: project.dir, home: project.home, rows: 40, columns: 120 });
    cleanups.push(() => tui.close());
    const dialog = await tui.waitFor('Enter to confirm');
    expect(dialog).toContain('If you did not write this │\n│ project or do not know');
    tui.press('1');
    await tui.waitFor(READY);
    const all = tui.history();
    expect(all).not.toContain('Do you trust');
    expect(all.split('\n')[0]).toBe('');
    expect(all.split('\n')[1]).toMatch(/^╭─+╮$/);
  });

  it('Markdown: "-" bullets, and code spans styled instead of shown with backticks', async () => {
    const { api, tui } = await openApp(cleanups, {}, { env: { NO_COLOR: undefined } });
    api.script(reply().text('Steps:\n\n- run `npm test` first\n- then **ship**\n'));
    await send(tui, 'how');
    const screen = await tui.waitFor('- then ship');
    expect(screen).toContain('- run npm test first');
    expect(screen).not.toContain('`');
    const colored = tui.colored();
    expect(colored.slice(colored.indexOf('- run') - 20, colored.indexOf('first'))).toMatch(/\x1b\[33mnpm test/);
  });

  it('a refused connection says it retries after the first failure', async () => {
    const project = await makeTmpProject({ files: {} });
    cleanups.push(() => project.cleanup());
    const tui = startTui({ cwd: project.dir, home: project.home, env: { WICKET_MAX_RETRIES: '3', WICKET_RETRY_BASE_DELAY_MS: '1500' } });
    cleanups.push(() => tui.close());
    await send(tui, 'hello');
    const screen = await tui.waitFor('retrying (connection refused)…', 8000);
    expect(screen).toMatch(/attempt 1\/3/);
  });
});
