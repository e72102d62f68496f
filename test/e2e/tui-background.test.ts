/** Background work in the app, in a real terminal (tmux): a task that ends while the app is idle wakes the model. */
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('background tasks in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('a background command that ends while the app is idle wakes the model with its notice', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(
      reply().toolUse('Bash', { command: 'sleep 2.5; echo ready', description: 'warm the cache', run_in_background: true }),
      reply().text('Started it; I will look when it is done.'),
      reply().text('The cache is warm.'),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--allowedTools', 'Bash'] });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type('warm the cache in the background');
    tui.press('Enter');
    await tui.waitFor('Started it; I will look when it is done.');
    expect(api.messageRequests()).toHaveLength(2);
    const screen = await tui.waitFor('The cache is warm.', 20_000);
    expect(screen).toMatch(/● Background task b[0-9a-f]{8} finished: Background command "warm the cache" completed \(exit code 0\)/);
    const woke = api.messageRequests()[2]!.body as { messages: Array<{ role: string; content: any }> };
    expect(woke.messages.at(-2)).toMatchObject({ role: 'assistant' });
    expect(woke.messages.at(-1)!.role).toBe('user');
    expect(JSON.stringify(woke.messages.at(-1))).toContain('<status>completed</status>');
    // The wake-up is not a prompt of the person's.
    expect(screen.match(/warm the cache in the background/g)).toHaveLength(1);
  });

  it('/tasks stop <id> stops a running command, and the model is told the person stopped it', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(
      reply().toolUse('Bash', { command: 'sleep 30', description: 'long soak', run_in_background: true }, { id: 'toolu_bg' }),
      reply().text('Soaking in the background.'),
      reply().text('Noted: you stopped the soak.'),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--allowedTools', 'Bash'] });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type('soak it');
    tui.press('Enter');
    await tui.waitFor('Soaking in the background.');
    const started = JSON.stringify(api.messageRequests()[1]!.body);
    const id = /(b[0-9a-f]{8})/.exec(started)![1]!;
    tui.type(`/tasks stop ${id}`);
    tui.press('Enter');
    const screen = await tui.waitFor('Noted: you stopped the soak.', 20_000);
    expect(screen).toContain(`Stopped task ${id} (long soak).`);
    expect(JSON.stringify((api.messageRequests()[2]!.body as { messages: unknown[] }).messages.at(-1))).toContain(
      'Background command \\"long soak\\" was stopped by the user',
    );
  });
});
