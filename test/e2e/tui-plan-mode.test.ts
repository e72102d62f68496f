/**
 * Plan mode as Claude Code 2.1 runs it, in a real terminal (tmux): the model enters plan mode itself,
 * writes its plan to the plan file under plansDirectory (the one file plan mode lets it write, with
 * no prompt), and ExitPlanMode shows that plan for approval with the mode to go on in.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { planFilePath } from '../../src/settings/plan-file.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { openApp, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();
const SESSION = '5f0c2a9e-1b7d-4c3a-9e8f-2d6b4a1c7e90';

describe.skipIf(!hasTmux())('plan mode', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('EnterPlanMode, the plan written to its file, ExitPlanMode approved with "auto-accept edits": the session goes on in acceptEdits', async () => {
    const settings = { plansDirectory: 'plans' };
    const { project, api, tui } = await openApp(cleanups, { settings }, { args: ['--session-id', SESSION] });
    const file = planFilePath({ sessionId: SESSION, projectRoot: project.dir, homeDir: project.home, env: {}, settings });
    api.script(
      reply().toolUse('EnterPlanMode', {}),
      reply().toolUse('Write', { file_path: file, content: '# Rename the helper\n\n1. rename util to helper\n2. run the tests\n' }),
      reply().toolUse('Write', { file_path: path.join(project.dir, 'src.ts'), content: 'too early' }),
      reply().toolUse('ExitPlanMode', {}),
      reply().text('Starting now.'),
    );
    await send(tui, 'rename the helper');
    await tui.waitFor('Would you like to proceed?');
    const screen = tui.screen();
    expect(screen).toContain('1. rename util to helper');
    expect(screen).toContain('Yes, and auto-accept edits');
    expect(await project.read(path.relative(project.dir, file))).toContain('# Rename the helper');
    expect(project.exists('src.ts')).toBe(false);
    tui.type('1');
    await tui.waitFor('● Starting now.');
    await tui.waitFor(/accept edits on/i);
    const sent = JSON.stringify(api.messageRequests().map((r) => r.body.messages));
    expect(sent).toContain('Entered plan mode');
    expect(sent).toContain('plan mode is on');
    expect(sent).toContain(`Your plan has been saved to: ${file}`);
  });
});
