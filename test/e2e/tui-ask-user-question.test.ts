/**
 * AskUserQuestion in a real terminal (tmux): the model's questions as a dialog with their options and
 * "Other", one question after the other, multi-select with Space; the answers reach the model as
 * Claude Code words them. Esc stops the turn. Print mode does not offer the tool at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { runCli } from '../support/run-cli.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { openApp, pause, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();

const QUESTIONS = {
  questions: [
    {
      question: 'Which date library?',
      header: 'Library',
      options: [
        { label: 'date-fns', description: 'small, functional' },
        { label: 'luxon', description: 'time zones built in' },
      ],
      multiSelect: false,
    },
    {
      question: 'Which checks should run?',
      header: 'Checks',
      options: [
        { label: 'lint', description: 'Biome' },
        { label: 'types', description: 'tsc' },
        { label: 'tests', description: 'vitest' },
      ],
      multiSelect: true,
    },
  ],
};

/** The tool_result the model got for the call. */
function resultOf(api: { messageRequests(): Array<{ body: { messages?: unknown[] } }> }): string {
  return JSON.stringify(api.messageRequests().at(-1)!.body.messages);
}

describe.skipIf(!hasTmux())('AskUserQuestion', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('asks each question in a dialog: a number chooses, Space ticks several, "Other" takes typed text; the model reads the answers', async () => {
    const { api, tui } = await openApp(cleanups);
    api.script(reply().toolUse('AskUserQuestion', QUESTIONS), reply().text('Going with those.'));
    await send(tui, 'set up dates');
    await tui.waitFor('Which date library?');
    expect(tui.screen()).toContain('3. Other');
    tui.type('2');
    await tui.waitFor('Which checks should run?');
    tui.type('1');
    await pause(100);
    tui.press('Down');
    tui.press('Down');
    tui.press('Space');
    await tui.waitFor('[x] tests');
    tui.type('4');
    await pause(150);
    tui.type('docs too');
    await tui.waitFor('docs too');
    tui.press('Enter');
    await tui.waitFor('● Going with those.');
    const sent = resultOf(api);
    expect(sent).toContain(
      'User has answered your questions: \\"Which date library?\\"=\\"luxon\\", \\"Which checks should run?\\"=\\"lint, tests, docs too\\"',
    );
  });

  it('Esc leaves the questions unanswered and stops the turn', async () => {
    const { api, tui } = await openApp(cleanups);
    api.script(reply().toolUse('AskUserQuestion', QUESTIONS), reply().text('should not be asked'));
    await send(tui, 'set up dates');
    await tui.waitFor('Which date library?');
    tui.press('Escape');
    await tui.waitFor(/Ask wicket to do something/);
    await pause(500);
    expect(api.messageRequests()).toHaveLength(1);
    expect(tui.screen()).not.toContain('should not be asked');
  });

  it('print mode does not offer it (nobody could answer), as Claude Code leaves it out', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().text('ok'));
    const r = await runCli(['-p', 'hi'], { cwd: project.dir, home: project.home, baseUrl: api.url });
    expect(r.code).toBe(0);
    const tools = (api.messageRequests()[0]!.body as { tools?: Array<{ name: string }> }).tools!.map((t) => t.name);
    expect(tools).not.toContain('AskUserQuestion');
    expect(tools).toContain('Read');
  });
});
