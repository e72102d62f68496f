/** /compact in the app, in a real terminal (tmux): the conversation becomes its summary. */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTINUATION_PREFIX } from '../../src/core/compact.js';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('/compact in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('replaces the conversation by a summary that keeps what the person asked for', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().text('The capital is Paris.'), reply().text('SUMMARY: asked about France; answer Paris.'), reply().text('Lyon is second.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type('capital of France?');
    tui.press('Enter');
    await tui.waitFor('The capital is Paris.');
    tui.type('/compact keep the city names');
    tui.press('Enter');
    await tui.waitFor(/conversation was compacted into a summary \(it held [\d,]+ tokens\)/);
    const summaryRequest = api.messageRequests()[1]!.body as { messages: Array<{ content: any }> };
    expect(JSON.stringify(summaryRequest.messages.at(-1))).toContain('also follow this: keep the city names');
    tui.type('and the second city?');
    tui.press('Enter');
    await tui.waitFor('Lyon is second.');
    const after = api.messageRequests()[2]!.body as { messages: Array<{ role: string; content: any }> };
    expect(after.messages).toHaveLength(1);
    expect(JSON.stringify(after.messages[0])).toContain(JSON.stringify(`${CONTINUATION_PREFIX}\n\nSUMMARY: asked about France; answer Paris.`).slice(1, -1));
    expect(JSON.stringify(after.messages[0])).toContain('and the second city?');
    api.assertNoViolations();
  });
});
