/**
 * MCP servers in the app, in a real terminal (tmux): a project server waits for the person's
 * answer, which is saved; its tools ask before each call; /mcp lists the servers; `@` completes its
 * resources; tools and prompts it adds later are offered.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui, type Tui } from './tui-driver.js';

const TMUX = hasTmux();
const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');

const cleanups = cleanupsAfterEach();

async function setup(): Promise<{ project: TmpProject; api: FakeAnthropic; tui: () => Tui }> {
  const project = await makeTmpProject({ files: {} });
  const api = await startFakeAnthropic();
  cleanups.push(
    () => project.cleanup(),
    () => api.close(),
  );
  writeFileSync(path.join(project.dir, '.mcp.json'), JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [SERVER] } } }));
  return {
    project,
    api,
    tui: () => {
      const t = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url });
      cleanups.push(() => t.close());
      return t;
    },
  };
}

/** The local settings once the file exists (the answer is saved in the background). */
async function localSettings(project: TmpProject): Promise<unknown> {
  const f = path.join(project.dir, '.claude', 'settings.local.json');
  for (let waited = 0; !existsSync(f) && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : {};
}

describe.skipIf(!TMUX)('MCP servers in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('asks before starting a project server, saves the answer, and its tools ask before each call', async () => {
    const { project, api, tui: open } = await setup();
    api.script(reply().toolUse('mcp__test__echo', { text: 'from the app' }), reply().text('The server said it.'), reply().text('Reviewed it.'));
    const tui = open();
    const dialog = await tui.waitFor('New MCP server found in .mcp.json: test');
    expect(dialog).toContain(`stdio: ${process.execPath} ${SERVER}`);
    tui.press('2');
    await tui.waitFor(READY);
    expect(await localSettings(project)).toEqual({ enabledMcpjsonServers: ['test'] });
    tui.type('use echo');
    tui.press('Enter');
    const asked = await tui.waitFor(/echo is a tool of the MCP server test/);
    expect(asked).toContain('mcp__test__echo');
    tui.press('1');
    await tui.waitFor('The server said it.');
    const results = JSON.stringify(api.messageRequests().at(-1)!.body.messages);
    expect(results).toContain('echo: from the app');
    tui.type('/mcp');
    tui.press('Enter');
    const listed = await tui.waitFor(/✓ test\s+connected\s+10 tools, 3 resources/);
    expect(listed).toContain('(project: ');
    // The server's prompts are slash commands too.
    tui.type('/mcp__test__rev');
    await tui.waitFor(/\/mcp__test__review\s+Review a change \(MCP prompt\)/);
    tui.type('iew 7');
    tui.press('Enter');
    await tui.waitFor('Reviewed it.');
    expect(JSON.stringify(api.messageRequests().at(-1)!.body.messages)).toContain('Review pull request 7.');
    api.assertNoViolations();
  });

  it('@ offers the server’s resources and attaches the one taken; a tool and a prompt it adds are offered next', async () => {
    const { project, api, tui: open } = await setup();
    api.script(reply().text('Seen the dot.'), reply().toolUse('mcp__test__grow', { name: 'fresh' }), reply().text('Grown.'), reply().text('Fresh prompt run.'));
    const tui = open();
    await tui.waitFor('New MCP server found in .mcp.json: test');
    tui.press('2');
    await tui.waitFor(READY);
    expect(await localSettings(project)).toEqual({ enabledMcpjsonServers: ['test'] });
    tui.type('describe @dot');
    await tui.waitFor(/@test:test:\/\/images\/dot\.png\s+dot · A red dot\./);
    tui.press('Tab');
    await tui.waitFor('describe @test:test://images/dot.png');
    tui.press('Enter');
    await tui.waitFor('Seen the dot.');
    const sent = JSON.stringify(api.messageRequests().at(-1)!.body.messages);
    expect(sent).toContain('Contents of the MCP resource @test:test://images/dot.png');
    expect(sent).toContain('"media_type":"image/png"');
    tui.type('grow a tool');
    tui.press('Enter');
    await tui.waitFor(/grow is a tool of the MCP server test/);
    tui.press('1');
    await tui.waitFor('Grown.');
    expect((api.messageRequests().at(-1)!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('mcp__test__fresh');
    tui.type('/mcp__test__fr');
    await tui.waitFor(/\/mcp__test__fresh\s+Added by grow\. \(MCP prompt\)/);
    tui.press('Tab');
    await tui.waitFor('❯ /mcp__test__fresh');
    tui.press('Enter');
    await tui.waitFor('Fresh prompt run.');
    expect(JSON.stringify(api.messageRequests().at(-1)!.body.messages)).toContain('The fresh prompt.');
    api.assertNoViolations();
  });

  it('"continue without" keeps the server off, now and in the next session', async () => {
    const { project, api, tui: open } = await setup();
    api.script(reply().text('no tools from it'), reply().text('still none'));
    const first = open();
    await first.waitFor('New MCP server found in .mcp.json: test');
    first.press('Escape');
    await first.waitFor(READY);
    expect(await localSettings(project)).toEqual({ disabledMcpjsonServers: ['test'] });
    first.type('hello');
    first.press('Enter');
    await first.waitFor('no tools from it');
    const tools = (api.messageRequests()[0]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools.some((n) => n.startsWith('mcp__'))).toBe(false);
    const second = open();
    await second.waitFor(READY);
    expect(second.screen()).not.toContain('New MCP server found');
    second.type('/mcp');
    second.press('Enter');
    await second.waitFor(/- test\s+disabled/);
  });
});
