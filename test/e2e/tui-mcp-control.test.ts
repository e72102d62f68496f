/**
 * /mcp reconnect, disable and enable in a real terminal (tmux): a server turned off takes its tools out
 * of the next request and is kept in settings.local.json, turned on brings them back, and reconnect connects it again.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-cli.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { openApp, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();
const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');

describe.skipIf(!hasTmux())('/mcp reconnect, enable, disable', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('disable takes the tools out of the next request, enable brings them back, reconnect connects again', async () => {
    const mcp = JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [SERVER] } } });
    const { api, tui, project } = await openApp(cleanups, { files: { '.mcp.json': mcp }, localSettings: { enabledMcpjsonServers: ['test'] } }, { rows: 40 });
    const mcpTools = (i: number) =>
      ((api.messageRequests()[i]!.body as { tools: Array<{ name: string }> }).tools ?? []).filter((t) => t.name.startsWith('mcp__test__')).length;
    api.script(reply().text('first'), reply().text('second'), reply().text('third'));
    await send(tui, 'hello');
    await tui.waitFor('● first');
    expect(mcpTools(0)).toBeGreaterThan(0);
    await send(tui, '/mcp disable test');
    await tui.waitFor('MCP server "test" turned off; saved in');
    expect(JSON.parse(readFileSync(path.join(project.dir, '.claude', 'settings.local.json'), 'utf8'))).toMatchObject({ disabledMcpjsonServers: ['test'] });
    await send(tui, 'again');
    await tui.waitFor('● second');
    expect(mcpTools(1)).toBe(0);
    await send(tui, '/mcp enable test');
    await tui.waitFor(/MCP server "test" turned on \(\d+ tools?\)/);
    await send(tui, '/mcp reconnect test');
    await tui.waitFor(/MCP server "test" reconnected/);
    await send(tui, 'and again');
    await tui.waitFor('● third');
    expect(mcpTools(2)).toBe(mcpTools(0));
  });
});
