/** Esc Esc in the app, in a real terminal (tmux): rewind the conversation and the code to before an earlier prompt. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, startTui, type Tui } from './tui-driver.js';

const TMUX = hasTmux();

/** Esc twice, as a person presses it (two keys sent at once can reach the app as one Meta+Esc). */
async function escEsc(tui: Tui): Promise<void> {
  tui.press('Escape');
  await new Promise((r) => setTimeout(r, 150));
  tui.press('Escape');
}
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('rewind in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('Esc Esc lists the prompts; picking one cuts the conversation back and puts it in the input', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().text('Answer one.'), reply().text('Answer two.'), reply().text('Answer three.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor('shift+tab to cycle');
    for (const [prompt, answer] of [
      ['first question', 'Answer one.'],
      ['second question', 'Answer two.'],
    ]) {
      tui.type(prompt!);
      await tui.waitFor(prompt!);
      tui.press('Enter');
      await tui.waitFor(answer!);
    }
    await tui.waitFor(/Ask wicket to do something/);
    await escEsc(tui);
    const list = await tui.waitFor('Restore the code and/or the conversation to the point before');
    expect(list).toMatch(/first question[^❯]*\n[^\n]*❯ second question/);
    tui.press('Up');
    await tui.waitFor(/❯ first question/);
    tui.press('Enter');
    // No file changed: only the conversation can go back.
    const confirm = await tui.waitFor('No file of the project changed since then');
    expect(confirm).toContain('2. Never mind');
    expect(confirm).not.toContain('Restore code');
    tui.press('Enter');
    await tui.waitFor('Rewound the conversation to before "first question"');
    tui.type(' again');
    await tui.waitFor('first question again');
    tui.press('Enter');
    await tui.waitFor('Answer three.');
    const last = api.messageRequests().at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(last.messages).toHaveLength(1);
    expect(JSON.stringify(last.messages[0])).toContain('first question again');
    api.assertNoViolations();
  });

  it('restores the files the model changed since a prompt: "Restore code and conversation"', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const notes = project.path('notes.txt');
    const extra = project.path('extra.txt');
    api.script(
      reply().toolUse('Write', { file_path: notes, content: 'version one\n' }),
      reply().text('Wrote notes.'),
      reply().toolUse('Read', { file_path: notes }),
      reply().toolUse('Edit', { file_path: notes, old_string: 'version one', new_string: 'version two' }),
      reply().toolUse('Write', { file_path: extra, content: 'extra\n' }),
      reply().text('Edited notes.'),
      reply().text('Answer three.'),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--permission-mode', 'acceptEdits'] });
    cleanups.push(() => tui.close());
    await tui.waitFor('shift+tab to cycle');
    for (const [prompt, answer] of [
      ['write the notes', 'Wrote notes.'],
      ['edit the notes', 'Edited notes.'],
    ]) {
      tui.type(prompt!);
      await tui.waitFor(prompt!);
      tui.press('Enter');
      await tui.waitFor(answer!);
    }
    expect(readFileSync(notes, 'utf8')).toBe('version two\n');
    await tui.waitFor(/Ask wicket to do something/);
    await escEsc(tui);
    // Each prompt shows what restoring the code to before it would change.
    const list = await tui.waitFor(/❯ edit the notes[^\n]*\n[^\n]*extra\.txt \+1 -0 \(new\), notes\.txt \+1 -1/);
    expect(list).toContain('Restore the code and/or the conversation to the point before');
    tui.press('Enter');
    const confirm = await tui.waitFor('4. Never mind');
    expect(confirm).toMatch(/1\. Restore code and conversation[^\n]*\n[^\n]*2\. Restore conversation[^\n]*\n[^\n]*3\. Restore code/);
    expect(confirm).toContain('The code will be restored in 2 files');
    expect(confirm).toContain('Files are restored whatever tool changed them');
    tui.press('Enter');
    await tui.waitFor(
      /Restored the code to before "edit the notes": 1 file restored \(notes\.txt\); 1 file deleted that did\s+not exist then \(extra\.txt\)\./,
    );
    await tui.waitFor('Rewound the conversation to before "edit the notes".');
    expect(readFileSync(notes, 'utf8')).toBe('version one\n');
    expect(existsSync(extra)).toBe(false);
    // The prompt is back in the input; the next request no longer holds the rewound turn.
    await tui.waitFor(/❯ edit the notes/);
    tui.press('Enter');
    await tui.waitFor('Answer three.');
    const last = api.messageRequests().at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(last.messages)).not.toContain('version two');
    api.assertNoViolations();
  });

  it('a resumed session still restores the files of its earlier prompts (/rewind, "Restore code")', async () => {
    const project = await makeTmpProject({ files: { 'app.txt': 'original\n' } });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const app = project.path('app.txt');
    api.script(
      reply().toolUse('Read', { file_path: app }),
      reply().toolUse('Edit', { file_path: app, old_string: 'original', new_string: 'changed' }),
      reply().text('Changed the app.'),
    );
    // The first run is print mode: its checkpoints are kept with the session too.
    const first = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['-p', 'change the app', '--permission-mode', 'acceptEdits'] });
    cleanups.push(() => first.close());
    await first.waitFor('[exited 0]');
    expect(readFileSync(app, 'utf8')).toBe('changed\n');

    // The app's --continue passes over print-mode sessions (as Claude Code's does): resume it by id.
    const sessions = path.join(project.home, '.claude', 'projects');
    const [slug] = readdirSync(sessions);
    const [file] = readdirSync(path.join(sessions, slug!)).filter((f) => f.endsWith('.jsonl'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--resume', file!.slice(0, -'.jsonl'.length)] });
    cleanups.push(() => tui.close());
    await tui.waitFor('shift+tab to cycle');
    tui.type('/rewind');
    await tui.waitFor('/rewind');
    tui.press('Enter');
    await tui.waitFor(/❯ change the app[^\n]*\n[^\n]*app\.txt \+1 -1/);
    tui.press('Enter');
    await tui.waitFor('4. Never mind');
    tui.press('3');
    await tui.waitFor('Restored the code to before "change the app": 1 file restored (app.txt).');
    expect(readFileSync(app, 'utf8')).toBe('original\n');
    // "Restore code" keeps the conversation.
    expect(tui.history()).not.toContain('Rewound the conversation');
    api.assertNoViolations();
  });

  it('/rewind lists and restores what a Bash command changed, and the restore can be undone', async () => {
    const project = await makeTmpProject({ files: { 'conf.txt': 'port=80\n', 'old.txt': 'old\n' }, settings: { permissions: { allow: ['Bash'] } } });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(
      reply().toolUse('Bash', { command: "sed -i 's/80/8080/' conf.txt && rm old.txt && touch made.txt", description: 'reconfigure' }),
      reply().text('Reconfigured.'),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor('shift+tab to cycle');
    tui.type('reconfigure it');
    await tui.waitFor('reconfigure it');
    tui.press('Enter');
    await tui.waitFor('Reconfigured.');
    expect(readFileSync(project.path('conf.txt'), 'utf8')).toBe('port=8080\n');
    tui.type('/rewind');
    await tui.waitFor('/rewind');
    tui.press('Enter');
    await tui.waitFor(/❯ reconfigure it[^\n]*\n[^\n]*conf\.txt \+1 -1, made\.txt \+0 -0 \(new\) and 1 more/);
    tui.press('Enter');
    const confirm = await tui.waitFor('4. Never mind');
    expect(confirm).toContain('The code will be restored in 3 files');
    tui.press('3');
    await tui.waitFor(/Restored the code to before "reconfigure it": 2 files restored \(conf\.txt, old\.txt\); 1 file deleted/);
    expect(readFileSync(project.path('conf.txt'), 'utf8')).toBe('port=80\n');
    expect(readFileSync(project.path('old.txt'), 'utf8')).toBe('old\n');
    expect(existsSync(project.path('made.txt'))).toBe(false);
    // The files as they were before the restore are a rewind point of their own.
    tui.type('/rewind');
    await tui.waitFor('/rewind');
    tui.press('Enter');
    await tui.waitFor(/❯ \(before the rewind to before "reconfigure it"\)/);
    tui.press('Enter');
    await tui.waitFor('2. Never mind');
    tui.press('1');
    await tui.waitFor(/Restored the code to before "\(before the rewind/);
    expect(readFileSync(project.path('conf.txt'), 'utf8')).toBe('port=8080\n');
    expect(existsSync(project.path('made.txt'))).toBe(true);
    api.assertNoViolations();
  });
});
