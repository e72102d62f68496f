/**
 * The keys a Claude Code user reaches for, in a real terminal (tmux): `!` runs a shell command,
 * Ctrl+G edits the prompt in $EDITOR, Ctrl+O shows the whole transcript, Ctrl+R searches the
 * history, Ctrl+B sends a running Bash command to the background, `\` and Alt+Enter add a line.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { lastUserText, openApp, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();

describe.skipIf(!hasTmux())('keys of the app', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('! runs a command through the Bash gates; its output joins the conversation without a request; a deny rule stops it', async () => {
    const { project, api, tui } = await openApp(cleanups, { files: { 'keep.txt': 'x' }, settings: { permissions: { deny: ['Bash(rm:*)'] } } });
    api.script(reply().text('Seen it.'));
    await send(tui, '!echo bang-$((40+2))');
    await tui.waitFor('bang-42');
    expect(tui.screen()).toContain('! echo bang-$((40+2))');
    await send(tui, '!rm keep.txt');
    await tui.waitFor('Not run:');
    expect(project.exists('keep.txt')).toBe(true);
    expect(api.messageRequests()).toHaveLength(0);
    await send(tui, 'what did it print?');
    await tui.waitFor('● Seen it.');
    const sent = JSON.stringify(api.messageRequests()[0]!.body.messages);
    expect(sent).toContain('<bash-input>echo bang-$((40+2))</bash-input>');
    expect(sent).toContain('<bash-stdout>bang-42');
    expect(sent).toContain('<bash-input>rm keep.txt</bash-input>');
    expect(sent).toMatch(/<bash-stderr>Not run: [^<]*the rule Bash\(rm:\*\)/);
    expect(lastUserText(api)).toContain('what did it print?');
  });
});
