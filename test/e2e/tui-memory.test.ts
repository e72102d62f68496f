/** The instruction files by hand in the app (tmux): `# text` adds a line where the person chooses; /memory lists the files and opens one in $EDITOR. */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();
type Body = { messages: Array<{ content: string | Array<{ type: string; text?: string }> }> };

async function start(files: Record<string, string>, env: Record<string, string> = {}) {
  const project = await makeTmpProject({ files });
  const api = await startFakeAnthropic();
  cleanups.push(
    () => project.cleanup(),
    () => api.close(),
  );
  const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, env, columns: 140 });
  cleanups.push(() => tui.close());
  await tui.waitFor(READY);
  const firstMessage = () => JSON.stringify((api.lastRequest()!.body as Body).messages[0]);
  return { project, api, tui, firstMessage };
}

describe.skipIf(!TMUX)('instruction files in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('`# text` asks which file, adds the line there, and the next request carries it; nothing goes to the model', async () => {
    const { project, api, tui, firstMessage } = await start({ 'CLAUDE.md': '# Project\n' });
    tui.type('# always use tabs for indentation');
    tui.press('Enter');
    await tui.waitFor('Where should this go?');
    tui.press('1');
    await tui.waitFor(`Saved to ${project.path('CLAUDE.md')}`);
    expect(readFileSync(project.path('CLAUDE.md'), 'utf8')).toBe('# Project\n- always use tabs for indentation\n');
    expect(api.requests).toHaveLength(0);
    api.script(reply().text('Noted answer.'));
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('Noted answer.');
    expect(firstMessage()).toContain('# Project\\n- always use tabs for indentation');
  });

  it('imports from outside the project: asked once, the answer saved in ~/.claude.json, and the files given after yes', async () => {
    const project = await makeTmpProject({ files: {}, home: { 'shared/ext.md': 'Shared: EXTERNAL-MARK.\n' } });
    const ext = `${project.home}/shared/ext.md`;
    await project.write('CLAUDE.md', `Project. @${ext}\n`);
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, columns: 140 });
    cleanups.push(() => tui.close());
    const dialog = await tui.waitFor('Allow external CLAUDE.md file imports?');
    expect(dialog).toContain(ext);
    expect(dialog).toContain('1. No, disable external imports');
    tui.press('2');
    await tui.waitFor(READY);
    const state = JSON.parse(readFileSync(`${project.home}/.claude.json`, 'utf8')).projects[project.dir];
    expect(state).toEqual(expect.objectContaining({ hasClaudeMdExternalIncludesApproved: true, hasClaudeMdExternalIncludesWarningShown: true }));
    api.script(reply().text('Seen.'));
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('Seen.');
    expect(JSON.stringify((api.lastRequest()!.body as Body).messages[0])).toContain('EXTERNAL-MARK');
  });

  it('a project rule linked to a file outside the project is asked about the same way; after no, it is not sent', async () => {
    const project = await makeTmpProject({ files: { 'CLAUDE.md': 'Project.\n' }, home: { 'shared/rule.md': 'Linked: LINKED-MARK.\n' } });
    const target = `${project.home}/shared/rule.md`;
    mkdirSync(project.path('.claude/rules'), { recursive: true });
    symlinkSync(target, project.path('.claude/rules/linked.md'));
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, columns: 140 });
    cleanups.push(() => tui.close());
    const dialog = await tui.waitFor('Allow external CLAUDE.md file imports?');
    expect(dialog).toContain(target);
    tui.press('1');
    await tui.waitFor(READY);
    api.script(reply().text('Seen.'));
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('Seen.');
    expect(JSON.stringify(api.requests)).not.toContain('LINKED-MARK');
  });

  it('Esc leaves the line unsaved', async () => {
    const { project, tui } = await start({ 'CLAUDE.md': '# Project\n' });
    tui.type('# not this');
    tui.press('Enter');
    await tui.waitFor('Where should this go?');
    tui.press('Escape');
    await tui.waitFor('Not saved.');
    expect(readFileSync(project.path('CLAUDE.md'), 'utf8')).toBe('# Project\n');
  });

  it('/memory lists the files with why and tokens; /memory 1 opens the first in $EDITOR, and the next request carries the change', async () => {
    const editor = `sh -c 'echo EDITED-MARK >> "$0"'`;
    const { project, api, tui, firstMessage } = await start({ 'CLAUDE.md': '# Project\n', 'docs/x.md': 'x\n' }, { EDITOR: editor });
    tui.type('/memory');
    tui.press('Enter');
    const listing = await tui.waitFor('Open one in your editor');
    expect(listing.replace(/\s+/g, ' ')).toContain(`1. ${project.path('CLAUDE.md')} — project instructions of ${project.dir}, ~`);
    tui.type('/memory 1');
    tui.press('Enter');
    await tui.waitFor('the next request carries what you saved');
    expect(readFileSync(project.path('CLAUDE.md'), 'utf8')).toBe('# Project\nEDITED-MARK\n');
    api.script(reply().text('Seen.'));
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('Seen.');
    expect(firstMessage()).toContain('EDITED-MARK');
  });
});
