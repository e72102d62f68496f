/**
 * The interactive app shares the transport: an API that goes silent after its headers is retried
 * on screen, then reported, and the app takes the next prompt instead of hanging. Through the
 * built binary in a real terminal (tmux); skipped when tmux is missing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from '../e2e/tui-driver.js';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('the app and a silent API', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('shows each retry and the final error, then answers the next prompt', async () => {
    const project = await makeTmpProject({ files: {} });
    const server = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => server.close(),
    );
    server.script(reply().hangAfterHeaders(), reply().hangAfterHeaders(), reply().text('the second answer'));
    const env = { WICKET_API_IDLE_TIMEOUT_MS: '250', WICKET_RETRY_BASE_DELAY_MS: '1', WICKET_RETRY_MAX_DELAY_MS: '5', WICKET_MAX_RETRIES: '1' };
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: server.url, env });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type('first question');
    await tui.waitFor('first question');
    tui.press('Enter');
    const failed = (await tui.waitFor(/tried 2\s+times/)).replace(/\s+/g, ' ');
    expect(failed).toContain('retrying (timed out)…');
    expect(failed).toContain('the API sent nothing for 250 ms in the middle of its answer (WICKET_API_IDLE_TIMEOUT_MS); tried 2 times');
    await tui.waitFor(READY);
    tui.type('second question');
    await tui.waitFor('second question');
    tui.press('Enter');
    await tui.waitFor('the second answer');
    expect(server.messageRequests()).toHaveLength(3);
  });
});
