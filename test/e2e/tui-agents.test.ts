/** Agent definitions in the app, in a real terminal (tmux): --agent's initialPrompt, and a sub-agent's color. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

describe.skipIf(!TMUX)('agent definitions in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('--agent sends its initialPrompt as the first turn; a sub-agent with a color shows its type in it', async () => {
    const project = await makeTmpProject({ files: {} });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    const agents = path.join(project.dir, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(path.join(agents, 'lead.md'), '---\nname: lead\ndescription: Leads\ninitialPrompt: Plan the painting job.\n---\nYou lead.\n');
    writeFileSync(path.join(agents, 'painter.md'), '---\nname: painter\ndescription: Paints\ncolor: purple\n---\nYou paint.\n');
    api.script(
      reply().toolUse('Agent', { description: 'paint the fence', prompt: 'Paint the fence.', subagent_type: 'painter' }),
      reply().text('painted'),
      reply().text('The fence is painted.'),
    );
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--agent', 'lead'], env: { NO_COLOR: undefined } });
    cleanups.push(() => tui.close());
    const screen = await tui.waitFor('The fence is painted.');
    expect(screen).toContain('Plan the painting job.');
    expect(screen).toContain('Agent(painter: paint the fence)');
    const first = api.messageRequests()[0]!.body as { system: Array<{ text: string }>; messages: unknown[] };
    expect(first.system[0]!.text.startsWith('You lead.')).toBe(true);
    expect(JSON.stringify(first.messages)).toContain('Plan the painting job.');
    // purple is magenta in the terminal (SGR 35), right before the type's name.
    expect(tui.colored()).toMatch(/\x1b\[[0-9;]*35m(?:\x1b\[[0-9;]*m)*painter/);
  });
});
