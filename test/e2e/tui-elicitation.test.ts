/**
 * MCP elicitation in the app, in a real terminal (tmux): a server's tool asks for input; the dialog
 * shows the server's message and a form built from its schema, checks it before it goes back, and
 * Esc cancels; URL mode shows the URL and opens it. Notification hooks hear of the dialog.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui, type Tui } from './tui-driver.js';

const TMUX = hasTmux();
const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');

const cleanups = cleanupsAfterEach();

async function setup(): Promise<{ project: TmpProject; api: FakeAnthropic; open: () => Tui }> {
  const project = await makeTmpProject({ files: {} });
  const api = await startFakeAnthropic();
  cleanups.push(
    () => project.cleanup(),
    () => api.close(),
  );
  writeFileSync(
    path.join(project.dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { forms: { command: process.execPath, args: [SERVER, '--elicit', '--no-resources'] } } }),
  );
  mkdirSync(path.join(project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(project.dir, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['forms'] }));
  const log = `node -e "process.stdin.pipe(require('fs').createWriteStream('notes.jsonl', { flags: 'a' }))"`;
  const settings = {
    permissions: { allow: ['mcp__forms'] },
    hooks: { Notification: [{ matcher: 'elicitation_.*', hooks: [{ type: 'command', command: log }] }] },
  };
  writeFileSync(path.join(project.dir, '.claude', 'settings.json'), JSON.stringify(settings));
  return {
    project,
    api,
    open: () => {
      const t = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, env: { BROWSER: 'true' } });
      cleanups.push(() => t.close());
      return t;
    },
  };
}

const lastResults = (api: FakeAnthropic) => JSON.stringify(api.messageRequests().at(-1)!.body.messages);

async function notificationTypes(project: TmpProject, count: number): Promise<string[]> {
  const f = path.join(project.dir, 'notes.jsonl');
  const read = () =>
    existsSync(f)
      ? readFileSync(f, 'utf8')
          .split(/(?<=})\s*(?={)/)
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l).notification_type as string)
      : [];
  for (let waited = 0; read().length < count && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  return read();
}

describe.skipIf(!TMUX)('MCP elicitation in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('shows the form, says what is wrong before sending, and sends what was entered', async () => {
    const { project, api, open } = await setup();
    api.script(reply().toolUse('mcp__forms__signup', {}), reply().text('Signed up.'));
    const tui = open();
    await tui.waitFor(READY);
    tui.type('sign me up');
    tui.press('Enter');
    const form = await tui.waitFor('MCP server "forms" requests your input');
    expect(form).toContain('Please tell us about yourself');
    expect(form).toMatch(/❯ Name\*: █\s+Your full name/);
    expect(form).toContain('Favourite colour: Green');
    expect(form).toContain('Subscribe: [ ] no');
    // One step at a time, each seen on screen before the next (keys sent together may arrive as one input).
    const step = async (keys: string[] | string, seen: string | RegExp) => {
      if (typeof keys === 'string') tui.type(keys);
      else tui.press(...keys);
      return tui.waitFor(seen);
    };
    await step('Ada', /Name\*: Ada█/);
    await step(['Down'], /❯ Age: █/);
    await step('3.5', /Age: 3\.5█/);
    await step(['Down'], /❯ Favourite colour: ‹ Green ›/);
    await step(['Right'], /‹ Blue ›/);
    await step(['Down'], /❯ Subscribe/);
    await step(['Space'], /Subscribe: \[x\] yes/);
    await step(['Down'], /❯ Accept/);
    const checked = await step(['Enter'], 'Age must be a whole number');
    expect(checked).toMatch(/❯ Age: 3\.5█/);
    expect(checked).toContain('Favourite colour: Blue');
    await step(['BSpace', 'BSpace', 'BSpace'], /❯ Age: █/);
    await step('36', /Age: 36█/);
    await step(['Down'], /❯ Favourite colour/);
    await step(['Down'], /❯ Subscribe/);
    await step(['Down'], /❯ Accept/);
    tui.press('Enter');
    await tui.waitFor('Signed up.');
    expect(lastResults(api)).toContain('signup: action=accept content={\\"name\\":\\"Ada\\",\\"age\\":36,\\"color\\":\\"blue\\",\\"subscribe\\":true}');
    expect(await notificationTypes(project, 2)).toEqual(['elicitation_dialog', 'elicitation_response']);
    api.assertNoViolations();
  });

  it('Esc cancels the form; URL mode shows the URL, opens it, and hears that the step finished', async () => {
    const { api, open } = await setup();
    api.script(
      reply().toolUse('mcp__forms__signup', {}),
      reply().text('Cancelled it.'),
      reply().toolUse('mcp__forms__connect', {}),
      reply().text('Connected.'),
    );
    const tui = open();
    await tui.waitFor(READY);
    tui.type('sign me up');
    tui.press('Enter');
    await tui.waitFor('MCP server "forms" requests your input');
    tui.press('Escape');
    await tui.waitFor('Cancelled it.');
    expect(lastResults(api)).toContain('signup: action=cancel');
    tui.type('connect my account');
    tui.press('Enter');
    const asked = await tui.waitFor('MCP server "forms" asks you to open a URL');
    expect(asked).toContain('Connect your account');
    expect(asked).toContain('https://example.com/connect?id=1');
    expect(asked).toMatch(/❯ Open URL/);
    tui.press('Enter');
    await tui.waitFor('Connected.');
    const screen = await tui.waitFor('says the step at the URL is done');
    expect(screen).toContain('Opened https://example.com/connect?id=1 for MCP server "forms"');
    expect(lastResults(api)).toContain('connect: action=accept');
    api.assertNoViolations();
  });
});
