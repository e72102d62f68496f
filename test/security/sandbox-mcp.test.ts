/**
 * stdio MCP servers run in the sandbox: under the same read masks (a Read-denied file is not
 * there for them, whatever field names the tool uses), the same write limits (no `.claude/`, nothing
 * outside the project) and the same network proxy as Bash. An entry's `"sandbox": false` runs it
 * outside (the control that proves the server would read the secret), and is refused when
 * sandbox.allowUnsandboxedCommands is false. Skipped, with the reason, only when bubblewrap cannot run.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { McpTransportConfig } from '../../src/mcp/config.js';
import { connectServer } from '../../src/mcp/connect.js';
import type { McpConnection } from '../../src/mcp/types.js';
import { stdioSandbox } from '../../src/mcp/sandbox.js';
import { stopSandboxProxy } from '../../src/sandbox/index.js';
import { canSandbox, sandboxEnv, type SandboxEnv, type SandboxEnvOptions } from './sandbox-support.js';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox-mcp-server.mjs');
const SECRET = 'S3CR3T-mcp-77';

let env: SandboxEnv | undefined;
const open: McpConnection[] = [];

afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
  env?.cleanup();
  env = undefined;
});

async function start(o: SandboxEnvOptions, entry: { sandbox?: boolean } = {}): Promise<McpConnection> {
  env = await sandboxEnv({
    files: { 'secret/key.txt': `${SECRET}-project`, 'src/app.ts': 'harmless code' },
    home: { '.ssh/id_rsa': `${SECRET}-ssh` },
    deny: ['Read(./secret/**)', 'Read(~/.ssh/**)'],
    ...o,
  });
  const ctx = env.ctx;
  const config: McpTransportConfig = {
    type: 'stdio',
    command: process.execPath,
    args: [SERVER],
    env: {},
    ...(entry.sandbox === false ? { sandbox: false } : {}),
  };
  const conn = await connectServer(config, {
    projectRoot: env.project,
    env: { PATH: process.env.PATH, HOME: env.home },
    timeoutMs: 30_000,
    toolTimeoutMs: 30_000,
    version: 'test',
    name: 'battery',
    sandbox: stdioSandbox(ctx),
  });
  open.push(conn);
  return conn;
}

async function call(conn: McpConnection, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await conn.callTool(name, args, { signal: new AbortController().signal, onProgress: () => {} });
  return (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
}

describe.skipIf(!canSandbox)('stdio MCP servers in the sandbox', () => {
  it('cannot read Read-denied files in the project or home; the same server outside the sandbox can', async () => {
    const outside = await start({}, { sandbox: false });
    const seen = await call(outside, 'dump', { folder: '.' });
    const seenHome = await call(outside, 'dump', { folder: path.join(env!.home, '.ssh') });
    expect(seen).toContain(`${SECRET}-project`);
    expect(seenHome).toContain(`${SECRET}-ssh`);
    await outside.close();
    env!.cleanup();
    const inside = await start({});
    const project = await call(inside, 'dump', { folder: '.' });
    expect(project).toContain('harmless code');
    expect(project).not.toContain(SECRET);
    expect(project).not.toContain('key.txt');
    expect(await call(inside, 'dump', { folder: path.join(env!.home, '.ssh') })).not.toContain(SECRET);
    expect(await call(inside, 'dump', { folder: '/proc/self/cwd/secret' })).not.toContain(SECRET);
  });

  it('cannot write configuration or outside the project, and leaves no mount point behind once closed', async () => {
    const conn = await start({});
    const targets = ['.claude/settings.json', '.mcp.json', 'CLAUDE.md', '.git/hooks/pre-commit', '../home/planted.txt', path.join(env!.home, '.wicket/x')];
    for (const target of targets) expect(await call(conn, 'put', { target, text: 'evil' }), target).toMatch(/refused/);
    expect(await call(conn, 'put', { target: 'out/ok.txt', text: 'fine' })).toBe('written');
    // While the server runs its mount points are there (empty); once it is closed, nothing is left.
    expect(existsSync(env!.file('.claude'))).toBe(true);
    await conn.close();
    for (const target of targets) expect(existsSync(path.resolve(env!.project, target)), target).toBe(false);
    expect(env!.tree()).toEqual(['out', 'out/ok.txt', 'secret', 'secret/key.txt', 'src', 'src/app.ts']);
  });

  it('an opt-out is refused when sandbox.allowUnsandboxedCommands is false', async () => {
    await expect(start({ sandbox: { allowUnsandboxedCommands: false } }, { sandbox: false })).rejects.toThrow(
      /cannot start in the sandbox: .*"sandbox": false.*allowUnsandboxedCommands is false/,
    );
  });

  describe('network', () => {
    let server: http.Server;
    let port = 0;
    const hits: string[] = [];
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        hits.push(req.url ?? '');
        res.end('hello mcp');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      server.close();
      await stopSandboxProxy();
    });

    it('follows allowedDomains through the same proxy as Bash', async () => {
      const conn = await start({ sandbox: { network: { allowedDomains: ['localhost'] } } });
      expect(await call(conn, 'fetch', { url: `http://localhost:${port}/allowed` })).toBe('200 hello mcp');
      expect(await call(conn, 'fetch', { url: `http://127.0.0.3:${port}/refused` })).toMatch(
        /^403 wicket sandbox: 127.0.0.3 is not in sandbox.network.allowedDomains/,
      );
      expect(hits).toEqual(['/allowed']);
    });

    it('has no network without allowedDomains', async () => {
      hits.length = 0;
      const conn = await start({});
      expect(await call(conn, 'fetch', { url: `http://127.0.0.1:${port}/none` })).toMatch(/^error/);
      expect(hits).toEqual([]);
    });
  });
});
