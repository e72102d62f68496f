/**
 * UserPromptExpansion and DirectoryAdded hooks in the app, in a real terminal (tmux); and a
 * SessionStart hook's initialUserMessage, which the app leaves alone (print mode only, as in Claude Code).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();
const json = (o: object) => `printf '%s' '${JSON.stringify(o)}'`;
const requestText = (api: { messageRequests(): Array<{ body: { messages?: unknown } }> }, i: number) =>
  JSON.stringify(api.messageRequests()[i]?.body.messages ?? []);

describe.skipIf(!TMUX)('prompt and folder hooks in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('a UserPromptExpansion hook blocks /deploy prod with a line saying why; /deploy staging goes out with its context', async () => {
    const gate = `grep -q '"command_args":"prod"' && { echo "Deploys to prod are frozen." >&2; exit 2; }; ${json({ hookSpecificOutput: { hookEventName: 'UserPromptExpansion', additionalContext: 'The staging database was reset today.' } })}`;
    const project = await makeTmpProject({
      files: { '.claude/commands/deploy.md': '---\ndescription: Deploy somewhere\n---\nDeploy the app to $ARGUMENTS.\n' },
      settings: { hooks: { UserPromptExpansion: [{ matcher: 'deploy', hooks: [{ type: 'command', command: gate }] }] } },
    });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
    );
    api.script(reply().text('Deployed to staging.'));
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type('/deploy prod');
    tui.press('Enter');
    await tui.waitFor('/deploy was blocked by a UserPromptExpansion hook: Deploys to prod are frozen.');
    expect(api.messageRequests()).toHaveLength(0);
    tui.type('/deploy staging');
    tui.press('Enter');
    await tui.waitFor('Deployed to staging.');
    expect(api.messageRequests()).toHaveLength(1);
    expect(requestText(api, 0)).toContain('Deploy the app to staging.');
    expect(requestText(api, 0)).toContain('The staging database was reset today.');
  });

  it('/add-dir fires DirectoryAdded in the background: its output stays out of sight, a failure is counted, a systemMessage reaches the model with the next prompt; initialUserMessage is not sent', async () => {
    const other = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-other-')));
    mkdirSync(path.join(other, 'lib'));
    const record = `cat > "$CLAUDE_PROJECT_DIR/added.json"; echo "stderr nobody sees" >&2; ${json({ systemMessage: 'The added repo builds with pnpm.' })}`;
    const project = await makeTmpProject({
      settings: {
        hooks: {
          DirectoryAdded: [
            {
              matcher: 'slash_command',
              hooks: [
                { type: 'command', command: record },
                { type: 'command', command: 'echo "plain output nobody sees"; echo "broken hook" >&2; exit 1' },
              ],
            },
            { matcher: 'register_repo_root', hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/wrong.txt"' }] },
          ],
          SessionStart: [
            { hooks: [{ type: 'command', command: json({ hookSpecificOutput: { hookEventName: 'SessionStart', initialUserMessage: 'Say hello first.' } }) }] },
          ],
        },
      },
    });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
      () => rmSync(other, { recursive: true, force: true }),
    );
    api.script(reply().text('Noted the new folder.'));
    const debugFile = path.join(other, 'debug.txt');
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, args: ['--debug-file', debugFile] });
    cleanups.push(() => tui.close());
    await tui.waitFor(READY);
    tui.type(`/add-dir ${other}`);
    tui.press('Enter');
    await tui.waitFor('1 DirectoryAdded hook failed');
    const screen = tui.history();
    expect(screen).toContain(`${other} is open to the tools`);
    expect(screen).not.toContain('plain output nobody sees');
    expect(screen).not.toContain('broken hook');
    expect(screen).not.toContain('stderr nobody sees');
    expect(screen).not.toContain('builds with pnpm');
    expect(JSON.parse(readFileSync(project.path('added.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'DirectoryAdded',
      directory: other,
      source: 'slash_command',
      cwd: project.dir,
    });
    expect(project.exists('wrong.txt')).toBe(false);
    // The hooks' output is in the debug log.
    const debug = readFileSync(debugFile, 'utf8');
    expect(debug).toMatch(/DirectoryAdded:slash_command error \(exit 1\): broken hook stdout: plain output nobody sees/);
    expect(debug).toContain('stderr nobody sees');
    // A folder inside one already open fires nothing.
    tui.type(`/add-dir ${path.join(other, 'lib')}`);
    tui.press('Enter');
    await tui.waitFor('is already open to the tools');
    // initialUserMessage is for print mode: the app sent nothing by itself.
    expect(api.messageRequests()).toHaveLength(0);
    tui.type('what changed?');
    tui.press('Enter');
    await tui.waitFor('Noted the new folder.');
    expect(requestText(api, 0)).toContain('The added repo builds with pnpm.');
    expect(requestText(api, 0)).not.toContain('Say hello first.');
  });
});
