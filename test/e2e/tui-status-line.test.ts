/** Settings `statusLine` in the app, in a real terminal (tmux): the command's output is shown, fed the session. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();

const SCRIPT = `let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const j = JSON.parse(s);
  require('fs').writeFileSync('status-input.json', s);
  console.log('\\x1b[32mSTATUS ' + j.model.display_name + ' cols=' + process.env.COLUMNS + '\\x1b[0m');
  console.log('cost ' + j.cost.total_cost_usd.toFixed(4));
});
`;

describe.skipIf(!TMUX)('the settings status line in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('shows the command’s rows, and runs it again after a reply with the session’s numbers', async () => {
    const project = await makeTmpProject({
      files: { 'status.cjs': SCRIPT },
      settings: { statusLine: { type: 'command', command: 'node status.cjs', padding: 1 } },
    });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().text('Hi there.').usage({ input_tokens: 1000, output_tokens: 100 }));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, columns: 90 });
    cleanups.push(() => tui.close());
    const first = await tui.waitFor(/ STATUS Sonnet 4\.6 cols=90/);
    expect(first).toContain('cost 0.0000');
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('Hi there.');
    await tui.waitFor(/cost 0\.00[1-9]/);
    const input = JSON.parse(readFileSync(path.join(project.dir, 'status-input.json'), 'utf8'));
    expect(input).toMatchObject({
      hook_event_name: 'Status',
      cwd: project.dir,
      model: { id: 'claude-sonnet-4-6', display_name: 'Sonnet 4.6' },
      workspace: { project_dir: project.dir },
    });
    expect(input.context_window.total_output_tokens).toBe(100);
  });
});
