/** Going back to a saved session in a real terminal (tmux): the picker of `wicket -r` and `/resume`, search, preview, fork, and /branch. */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { projectSessionsDir } from '../../src/session/paths.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

interface World {
  project: TmpProject;
  api: FakeAnthropic;
}

async function world(): Promise<World> {
  const project = await makeTmpProject({ git: true });
  const api = await startFakeAnthropic();
  cleanups.push(
    () => project.cleanup(),
    () => api.close(),
  );
  return { project, api };
}

/** A print-mode session in `cwd` (the project unless given): one prompt, one answer. */
async function saved(w: World, prompt: string, answer: string, extra: string[] = [], cwd = w.project.dir): Promise<string> {
  w.api.script(reply().text(answer));
  const r = await runCli(['-p', prompt, '--output-format', 'json', ...extra], { cwd, home: w.project.home, baseUrl: w.api.url });
  expectExit(r, 0);
  await new Promise((res) => setTimeout(res, 20)); // distinct modification times: newest first is well defined
  return r.json<{ session_id: string }>().session_id;
}

/** The texts of the messages of the last request the fake API received. */
function lastTexts(api: FakeAnthropic): string[] {
  const body = api.messageRequests().at(-1)!.body as { messages: Array<{ content: string | Array<{ type: string; text?: string }> }> };
  return body.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? `[${b.type}]`).join(' ')));
}

describe.skipIf(!TMUX)('saved sessions in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('wicket -r lists this project’s sessions newest first; typing searches, ctrl+a shows every project, Enter resumes', async () => {
    const w = await world();
    const other = await makeTmpProject();
    cleanups.push(() => other.cleanup());
    await saved(w, 'alpha question about parsers', 'Alpha answer.', ['-n', 'release prep']);
    const beta = await saved(w, 'beta question about tests', 'Beta answer.');
    await saved(w, 'gamma question elsewhere', 'Gamma answer.', [], other.dir);
    w.api.script(reply().text('Resumed answer.'));
    const tui = startTui({ cwd: w.project.dir, home: w.project.home, baseUrl: w.api.url, args: ['-r'] });
    cleanups.push(() => tui.close());
    const list = await tui.waitFor('Resume a session');
    const rows = list.split('\n').map((l) => l.replace(/[│]/g, '').trim());
    expect(rows.slice(rows.indexOf('❯ beta question about tests'), rows.indexOf('❯ beta question about tests') + 4)).toEqual([
      '❯ beta question about tests',
      'just now · 2 messages · master',
      'release prep',
      'just now · 2 messages · master',
    ]);
    expect(list).not.toContain('gamma');
    tui.press('C-a');
    const all = await tui.waitFor('gamma question elsewhere');
    expect(all).toContain(`2 messages · ${other.dir}`);
    tui.press('C-a');
    await tui.waitFor('(this project)');
    tui.type('beta');
    await tui.waitFor(/search: beta/);
    const found = tui.screen();
    expect(found).toContain('❯ beta question about tests');
    expect(found).not.toContain('release prep');
    tui.press('Enter');
    await tui.waitFor('Resumed a session of 2 messages');
    await tui.waitFor(READY);
    tui.type('and now?');
    await tui.waitFor('and now?');
    tui.press('Enter');
    await tui.waitFor('Resumed answer.');
    expect(lastTexts(w.api)).toEqual(['beta question about tests', 'Beta answer.', 'and now?']);
    // The session went on under its own id, in its own file.
    const dir = projectSessionsDir(path.join(w.project.home, '.claude'), w.project.dir);
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
    expect(readFileSync(path.join(dir, `${beta}.jsonl`), 'utf8')).toContain('Resumed answer.');
    w.api.assertNoViolations();
  });

  it('/resume in the app: ctrl+v previews, ctrl+f resumes as a new session; /branch goes on in a copy', async () => {
    const w = await world();
    const first = await saved(w, 'first saved prompt', 'First saved answer.', ['-n', 'named one']);
    w.api.script(reply().text('Fresh answer.'), reply().text('Forked answer.'), reply().text('Branch answer.'));
    const tui = startTui({ cwd: w.project.dir, home: w.project.home, baseUrl: w.api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type('a fresh prompt');
    await tui.waitFor('a fresh prompt');
    tui.press('Enter');
    await tui.waitFor('Fresh answer.');
    tui.type('/resume');
    await tui.waitFor('/resume');
    tui.press('Enter');
    const picker = await tui.waitFor('Resume a session');
    // The session running now is not offered.
    expect(picker.slice(picker.indexOf('Resume a session'))).not.toContain('a fresh prompt');
    tui.type('named');
    await tui.waitFor('❯ named one');
    tui.press('C-v');
    const preview = await tui.waitFor('Preview: named one');
    expect(preview).toContain('> first saved prompt');
    expect(preview).toContain('First saved answer.');
    tui.press('C-v');
    await tui.waitFor('❯ named one');
    tui.press('C-f');
    await tui.waitFor('Resumed a session of 2 messages');
    await tui.waitFor(READY);
    tui.type('forked prompt');
    await tui.waitFor('forked prompt');
    tui.press('Enter');
    await tui.waitFor('Forked answer.');
    expect(lastTexts(w.api)).toEqual(['first saved prompt', 'First saved answer.', 'forked prompt']);
    tui.type('/branch');
    await tui.waitFor('/branch');
    tui.press('Enter');
    const branched = await tui.waitFor('Resumed a session of 4 messages');
    expect(branched.replace(/[│\s]+/g, ' ')).toMatch(/A new session holding the conversation of [0-9a-f-]{36}, which stays as it was/);
    await tui.waitFor(READY);
    tui.type('branch prompt');
    await tui.waitFor('branch prompt');
    tui.press('Enter');
    await tui.waitFor('Branch answer.');
    expect(lastTexts(w.api)).toEqual(['first saved prompt', 'First saved answer.', 'forked prompt', 'Forked answer.', 'branch prompt']);
    // Four files: the saved session (untouched by the fork), the fresh one, the fork, the branch.
    const files = readdirSync(projectSessionsDir(path.join(w.project.home, '.claude'), w.project.dir)).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(4);
    expect(files).toContain(`${first}.jsonl`);
    w.api.assertNoViolations();
  });

  it('the picker takes Claude Code’s keys: Space previews, Ctrl+R renames, Ctrl+B keeps this branch, Esc clears the search first', async () => {
    const w = await world();
    const onMaster = await saved(w, 'master work on parsers', 'Master answer.');
    execFileSync('git', ['checkout', '-q', '-b', 'feature'], { cwd: w.project.dir });
    await saved(w, 'feature work on tests', 'Feature answer.');
    const tui = startTui({ cwd: w.project.dir, home: w.project.home, baseUrl: w.api.url, args: ['-r'] });
    cleanups.push(() => tui.close());
    const list = await tui.waitFor('Resume a session');
    expect(list.replace(/[│\s]+/g, ' ')).toContain('Ctrl+B to only show current branch · Space to preview · Ctrl+R to rename');
    tui.press('C-b');
    await tui.waitFor('(this project, branch feature)');
    expect(tui.screen()).not.toContain('master work on parsers');
    tui.press('C-b');
    await tui.waitFor('master work on parsers');
    tui.press('Down');
    await tui.waitFor('❯ master work on parsers');
    tui.press('Space');
    const preview = await tui.waitFor('Preview: master work on parsers');
    expect(preview).toContain('Master answer.');
    tui.press('Escape');
    await tui.waitFor('❯ master work on parsers');
    tui.press('C-r');
    await tui.waitFor('New session name: master work on parsers');
    tui.press('C-u');
    await tui.waitFor(/New session name: +│?\s*$/m);
    tui.type('parser rework');
    await tui.waitFor('New session name: parser rework');
    tui.press('Enter');
    await tui.waitFor('❯ parser rework');
    const file = path.join(projectSessionsDir(path.join(w.project.home, '.claude'), w.project.dir), `${onMaster}.jsonl`);
    const last = JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!);
    expect(last).toEqual({ type: 'custom-title', customTitle: 'parser rework', sessionId: onMaster });
    // Typed text takes Space as text; Esc clears it before it closes the picker.
    tui.type('rework qqzz');
    await tui.waitFor('search: rework qqzz');
    expect(tui.screen()).toContain('No session matches.');
    tui.press('Escape');
    await tui.waitFor(/search: +│?\s*$/m);
    expect(tui.screen()).toContain('parser rework');
    tui.press('Escape');
    await tui.waitFor(/\[exited \d+\]/);
    w.api.assertNoViolations();
  });
});
