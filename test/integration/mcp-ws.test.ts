/** MCP servers of type "ws" through the built binary: WebSocket, subprotocol "mcp", headers on the upgrade. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { startWsServer } from '../support/mcp-ws-server.mjs';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();
const mcpJson = (servers: Record<string, unknown>) => writeFileSync(path.join(t.project.dir, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
const toolsSent = () => (t.api.messageRequests()[0]!.body as { tools: Array<{ name: string }> }).tools.map((x) => x.name);

describe('MCP over WebSocket', () => {
  it('offers a ws server’s tools and calls them, with the entry’s headers (variables expanded) on the upgrade', async () => {
    const ws = await startWsServer({ token: 'sesame' });
    try {
      mcpJson({ events: { type: 'ws', url: ws.url, headers: { Authorization: 'Bearer ${WS_TOKEN}', 'X-Team': 'core' } } });
      t.api.script(reply().toolUse('mcp__events__add', { a: 2, b: 3 }, { id: 'toolu_1' }), reply().text('five'));
      const r = await t.run(['-p', 'add', '--allowedTools', 'mcp__events'], { env: { WS_TOKEN: 'sesame' }, timeoutMs: 30_000 });
      expectExit(r, 0);
      expect(toolsSent()).toEqual(expect.arrayContaining(['mcp__events__echo', 'mcp__events__add']));
      expect(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_1')).toMatchObject({ content: '5' });
      expect(ws.upgrades[0]).toEqual({ authorization: 'Bearer sesame', protocol: 'mcp', team: 'core' });
    } finally {
      await ws.close();
    }
  });

  it('a refused upgrade, an unreachable server and a bad URL are each the server’s own reason; the run goes on', async () => {
    const ws = await startWsServer({ token: 'sesame' });
    try {
      mcpJson({
        locked: { type: 'ws', url: ws.url },
        gone: { type: 'ws', url: 'ws://127.0.0.1:9/mcp' },
        wrong: { type: 'ws', url: 'https://example.invalid/mcp' },
      });
      t.api.script(reply().text('fine'));
      const r = await t.run(['-p', 'hi'], { timeoutMs: 30_000 });
      expectExit(r, 0);
      expect(r.stdout).toBe('fine\n');
      expect(r.stderr).toMatch(/MCP server "locked".*HTTP 401/);
      expect(r.stderr).toMatch(/MCP server "gone".*ECONNREFUSED/);
      expect(r.stderr).toContain('"url" must be a ws:// or wss:// URL');
      expect(r.stderr).not.toContain('wicket mcp login');
    } finally {
      await ws.close();
    }
  });
});
