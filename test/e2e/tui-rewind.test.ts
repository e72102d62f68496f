/** Esc Esc in the app, in a real terminal (tmux): rewind the conversation to before an earlier prompt. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { ensureBuilt, hasTmux, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(!TMUX)('rewind in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('Esc Esc lists the prompts; picking one cuts the conversation back and puts it in the input', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(() => project.cleanup(), () => api.close());
    api.script(reply().text('Answer one.'), reply().text('Answer two.'), reply().text('Answer three.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor('shift+tab to cycle');
    for (const [prompt, answer] of [['first question', 'Answer one.'], ['second question', 'Answer two.']]) {
      tui.type(prompt!);
      await tui.waitFor(prompt!);
      tui.press('Enter');
      await tui.waitFor(answer!);
    }
    await tui.waitFor(/Ask wicket to do something/);
    tui.press('Escape');
    tui.press('Escape');
    const list = await tui.waitFor('Rewind the conversation to before:');
    expect(list).toMatch(/first question[^❯]*\n[^\n]*❯ second question/);
    tui.press('Up');
    await tui.waitFor(/❯ first question/);
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
});
