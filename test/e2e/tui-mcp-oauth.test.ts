/**
 * Signing in to an OAuth-protected MCP server from the app, in a real terminal (tmux): the server
 * shows as needing authentication, `/mcp login` shows the URL (and tries the browser, here a script
 * that notes it), the test plays the browser, the server connects and its tools are offered; the
 * stored token serves a print-mode run too; `/mcp logout` clears it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.mjs';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from './tui-driver.js';

const TMUX = hasTmux();

const cleanups = cleanupsAfterEach();

async function until<T>(get: () => T | undefined, ms = 10_000): Promise<T> {
  for (const start = Date.now(); ; ) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!TMUX)('MCP sign-in in the app', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('/mcp shows the server needs authentication; /mcp login signs in and its tools join; /mcp logout clears it', async () => {
    const server = await startOAuthMcpServer();
    const project = await makeTmpProject({ files: {}, localSettings: { enabledMcpjsonServers: ['remote'] } });
    const api = await startFakeAnthropic();
    cleanups.push(
      () => project.cleanup(),
      () => api.close(),
      () => server.close(),
    );
    writeFileSync(path.join(project.dir, '.mcp.json'), JSON.stringify({ mcpServers: { remote: { type: 'http', url: server.url } } }));
    const opened = path.join(project.home, 'opened.txt');
    const browser = path.join(project.home, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${JSON.stringify(opened)}\n`, { mode: 0o755 });
    const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, env: { BROWSER: browser }, columns: 120 });
    cleanups.push(() => tui.close());

    await tui.waitFor(READY);
    await tui.waitFor('MCP server "remote" (');
    await tui.waitFor('needs authentication: /mcp login remote signs in');
    tui.type('/mcp');
    tui.press('Enter');
    await tui.waitFor(/! remote\s+needs authentication/);

    tui.type('/mcp login remote');
    tui.press('Enter');
    await tui.waitFor('Sign in to MCP server "remote": open this URL in your browser');
    const url = await until(() => (existsSync(opened) ? readFileSync(opened, 'utf8').trim() || undefined : undefined));
    expect(url.startsWith(`${server.issuer}/authorize?`)).toBe(true);
    expect(tui.screen()).toContain(`${server.issuer}/authorize?`);
    const back = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
    expect((await fetch(back)).status).toBe(200);
    await tui.waitFor('Signed in to MCP server "remote": connected, 10 tools.');
    tui.type('/mcp');
    tui.press('Enter');
    await tui.waitFor(/✓ remote\s+connected\s+10 tools, 3 resources/);

    api.script(reply().toolUse('mcp__remote__echo', { text: 'from the app' }), reply().text('The remote server said it.'));
    tui.type('use echo');
    tui.press('Enter');
    await tui.waitFor(/echo is a tool of the MCP server remote/);
    tui.press('1');
    await tui.waitFor('The remote server said it.');
    expect(JSON.stringify(api.messageRequests().at(-1)!.body.messages)).toContain('echo: from the app');

    // The stored token serves a print-mode run without asking.
    api.script(reply().toolUse('mcp__remote__add', { a: 20, b: 22 }, { id: 'toolu_p' }), reply().text('print done'));
    const r = await runCli(['-p', 'add', '--allowedTools', 'mcp__remote'], { cwd: project.dir, home: project.home, baseUrl: api.url, timeoutMs: 30_000 });
    expectExit(r, 0);
    expect(r.stdout).toBe('print done\n');
    expect(JSON.stringify(api.messageRequests().at(-1)!.body.messages)).toContain('"tool_use_id":"toolu_p","content":"42"');

    tui.type('/mcp logout remote');
    tui.press('Enter');
    await tui.waitFor('Cleared the stored authentication of MCP server "remote".');
    tui.type('/mcp remote');
    tui.press('Enter');
    await tui.waitFor(/remote: needs authentication\n.*\n.*\n.*needs authentication\n\s+\/mcp login remote to sign in/);
    api.assertNoViolations();
  });
});
