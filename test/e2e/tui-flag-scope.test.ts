/** The app with flags made for print mode, in a real terminal (tmux): the banner names them; --fallback-model works here too. */
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('flags in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('names the print-mode flags under the banner, and an overloaded model falls back to --fallback-model', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().error(529), reply().error(529), reply().error(529), reply().text('Answer from the fallback.'));
    const tui = startTui({
      cwd: project.dir,
      home: project.home,
      baseUrl: api.url,
      args: ['--max-budget-usd', '1', '--permission-mode', 'auto', '--fallback-model', 'haiku'],
      env: { WICKET_RETRY_BASE_DELAY_MS: '1' },
      columns: 200,
    });
    cleanups.push(() => tui.close());
    const banner = (await tui.waitFor(READY)).replace(/\s+/g, ' ');
    expect(banner).toContain('--max-budget-usd is not supported in the interactive app (only with --print): it has no effect');
    expect(banner).toContain('--permission-mode auto is not available in wicket: default is used');
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('Answer from the fallback.');
    expect(api.messageRequests().map((q) => (q.body as { model: string }).model)).toEqual([
      'claude-sonnet-4-6',
      'claude-sonnet-4-6',
      'claude-sonnet-4-6',
      'claude-haiku-4-5',
    ]);
    tui.press('C-d');
    await tui.waitFor(/\[exited 0\]/);
  });
});
