/**
 * The keys a Claude Code user reaches for, in a real terminal (tmux): `!` runs a shell command,
 * Ctrl+G edits the prompt in $EDITOR, Ctrl+O shows the whole transcript, Ctrl+R searches the
 * history, Ctrl+B sends a running Bash command to the background, `\` and Alt+Enter add a line.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { lastUserText, openApp, pause, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();

/** A folder of fake programs put first on the PATH: an editor that appends a line, and xclip holding a PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
function fakeBin(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-fakebin-'));
  cleanups.push(() => import('node:fs').then((fs) => fs.rmSync(dir, { recursive: true, force: true })));
  const script = (name: string, body: string) => {
    writeFileSync(path.join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(dir, name), 0o755);
  };
  writeFileSync(path.join(dir, 'image.png'), PNG);
  script('fake-editor', `printf '%s\\nadded in the editor\\n' "$(cat "$1")" > "$1.new" && mv "$1.new" "$1"`);
  script('xclip', `case "$*" in *TARGETS*) printf 'TARGETS\\nimage/png\\n';; *image/png*) cat '${dir}/image.png';; *) exit 1;; esac`);
  return { dir, env: { PATH: `${dir}:${process.env.PATH}`, EDITOR: path.join(dir, 'fake-editor'), DISPLAY: ':0' } };
}

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

  it('Ctrl+G edits the prompt in $EDITOR; ctrl+x ctrl+e does too; keybindings.json rebinds it (ctrl+e) and unbinds ctrl+g', async () => {
    const bin = fakeBin();
    const { tui } = await openApp(
      cleanups,
      { home: { '.claude/keybindings.json': '{"bindings":[{"context":"Chat","bindings":{"ctrl+e":"chat:externalEditor","ctrl+g":null}}]}' } },
      { env: bin.env },
    );
    await tui.waitFor('shift+tab to cycle');
    tui.type('draft one');
    await tui.waitFor('draft one');
    // Keys a person presses one after another (tmux could hand several over in one read).
    await pause(150);
    tui.press('C-g');
    await pause(800);
    expect(tui.screen()).not.toContain('added in the editor');
    tui.press('C-e');
    await tui.waitFor('added in the editor');
    tui.press('C-x');
    await pause(150);
    tui.press('C-e');
    await tui.waitFor(/added in the editor\s+added in the editor/);
  });

  it('\\ then Enter, Alt+Enter and Shift+Enter (CSI u) add a line; Enter sends the whole prompt', async () => {
    const { api, tui } = await openApp(cleanups);
    api.script(reply().text('Got four lines.'));
    await tui.waitFor('shift+tab to cycle');
    for (const step of [() => tui.type('one\\'), () => tui.press('Enter'), () => tui.type('two'), () => tui.press('M-Enter'), () => tui.type('three')]) {
      step();
      await pause(150);
    }
    tui.type('\x1b[13;2u');
    await pause(150);
    tui.type('four');
    await tui.waitFor('four');
    tui.press('Enter');
    await tui.waitFor('● Got four lines.');
    expect(lastUserText(api)).toContain('one\ntwo\nthree\nfour');
  });

  it('Ctrl+R finds an earlier prompt; Enter puts it in the prompt', async () => {
    const { api, tui } = await openApp(cleanups);
    api.script(reply().text('First answer.'), reply().text('Second answer.'));
    await send(tui, 'alpha prompt to find');
    await tui.waitFor('● First answer.');
    await tui.waitFor('shift+tab to cycle');
    tui.press('C-r');
    await tui.waitFor('search history:');
    tui.type('alpha');
    await tui.waitFor(/search history: alpha/);
    tui.press('Enter');
    // the entry is in the prompt once the search has closed; a second Enter read with the first would be the search's
    await tui.waitFor(/^(?![\s\S]*search history:)/);
    tui.press('Enter');
    await tui.waitFor('● Second answer.');
    expect(lastUserText(api)).toContain('alpha prompt to find');
  });

  it('Ctrl+O shows the full transcript (a call’s input and output whole), Esc goes back', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the notes`).join('\n');
    const { project, api, tui } = await openApp(cleanups, { files: { 'notes.txt': `${lines}\n` } }, { rows: 60 });
    api.script(reply().toolUse('Read', { file_path: project.path('notes.txt') }), reply().text('Read it.'));
    await send(tui, 'read the notes');
    await tui.waitFor('● Read it.');
    expect(tui.screen()).not.toContain('line 17 of the notes');
    tui.press('C-o');
    const full = await tui.waitFor('Showing the full transcript');
    expect(full).toContain('"file_path":');
    expect(full).toContain('line 17 of the notes');
    tui.press('Escape');
    await tui.waitFor('shift+tab to cycle');
    expect(tui.screen()).not.toContain('line 17 of the notes');
  });

  it('Ctrl+B sends a running Bash command to the background: the call returns at once with its task id', async () => {
    const { project, api, tui } = await openApp(cleanups, { settings: { permissions: { allow: ['Bash(touch:*)', 'Bash(sleep:*)'] } } });
    api.script(
      reply().toolUse('Bash', { command: 'touch started && sleep 40; echo late', description: 'a long wait' }),
      reply().text('Carrying on meanwhile.'),
    );
    await send(tui, 'wait a long time');
    // Ctrl+B once the command runs (not after a fixed pause a loaded machine may outlast); only Ctrl+B brings the answer before 40 s.
    for (let i = 0; i < 300 && !project.exists('started'); i++) await pause(50);
    tui.press('C-b');
    await tui.waitFor('● Carrying on meanwhile.', 30_000);
    const result = JSON.stringify(api.messageRequests()[1]!.body.messages);
    expect(result).toContain('Command running in background with ID');
    expect(result).toContain('Ctrl+B');
  });

  it('Ctrl+V pastes the clipboard’s image (xclip) as [Image #1]; a pasted image path becomes [Image #2]; both go as image blocks', async () => {
    const bin = fakeBin();
    const { api, tui } = await openApp(cleanups, {}, { env: bin.env });
    api.script(reply().text('Two images.'));
    await tui.waitFor('shift+tab to cycle');
    tui.type('look at ');
    await tui.waitFor('look at');
    await pause(150);
    tui.press('C-v');
    await tui.waitFor('[Image #1]');
    tui.type(' and ');
    await pause(150);
    tui.paste(path.join(bin.dir, 'image.png'));
    await tui.waitFor('[Image #2]');
    tui.press('Enter');
    await tui.waitFor('● Two images.');
    const last = api.messageRequests()[0]!.body.messages!.at(-1)!.content as Array<{
      type: string;
      text?: string;
      source?: { media_type: string; data: string };
    }>;
    expect(last.filter((b) => b.type === 'image').map((b) => b.source!.media_type)).toEqual(['image/png', 'image/png']);
    expect(last.find((b) => b.type === 'text')!.text).toContain('look at [Image #1] and [Image #2]');
    expect(last.find((b) => b.type === 'image')!.source!.data).toBe(PNG.toString('base64'));
  });
});
