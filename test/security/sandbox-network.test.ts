/**
 * The sandbox's network: with `allowedDomains`, an allowed name (here loopback names, allowed on
 * purpose) reaches a server on this machine through the proxy, plain HTTP and CONNECT alike; a
 * name that is not allowed is refused with a message saying so; nothing gets out around the proxy;
 * without `allowedDomains` there is no network at all. And when socat cannot run, the reason given
 * is the real one. Skipped, with the reason, only when bubblewrap cannot run here.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveProgram } from '../../src/sandbox/availability.js';
import { readSandboxSettings, socatAvailability, stopSandboxProxy } from '../../src/sandbox/index.js';
import { canSandbox, sandboxEnv, VISIBLE_TMP, type SandboxEnv } from './sandbox-support.js';

let server: http.Server;
let port = 0;
const hits: string[] = [];
let env: SandboxEnv | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    res.end(`hello from the host ${req.url}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await stopSandboxProxy();
});
afterEach(() => {
  env?.cleanup();
  env = undefined;
  hits.length = 0;
});

const curl = (url: string, flags = '') => `curl -sS -m 20 ${flags} ${url}; echo " [curl exit $?]"`;

describe.skipIf(!canSandbox)('allowedDomains', () => {
  it.each([
    ['localhost, by name', ['localhost'], () => curl(`http://localhost:${port}/by-name`), '/by-name'],
    ['127.0.0.1, by address', ['127.0.0.1'], () => curl(`http://127.0.0.1:${port}/by-address`), '/by-address'],
    ['a CONNECT tunnel (as HTTPS goes)', ['localhost'], () => curl(`http://localhost:${port}/tunnel`, '-p'), '/tunnel'],
    [
      'python urllib',
      ['localhost'],
      () => `python3 -c "import urllib.request; print(urllib.request.urlopen('http://localhost:${port}/py', timeout=20).read().decode())"`,
      '/py',
    ],
    ['a wildcard', ['*'], () => curl(`http://localhost:${port}/any`), '/any'],
  ])('an allowed %s reaches the server on the host', async (_what, allowed, command, route) => {
    env = await sandboxEnv({ sandbox: { network: { allowedDomains: allowed } } });
    const r = await env.sh(command());
    expect(r.text).toContain(`hello from the host ${route}`);
    expect(hits).toEqual([expect.stringContaining(` ${route}`)]);
  });

  it('a name that is not allowed is refused with a message saying so, and the model is told', async () => {
    env = await sandboxEnv({ sandbox: { network: { allowedDomains: ['localhost'] } } });
    const plain = await env.sh(curl(`http://127.0.0.3:${port}/refused`, "-w ' [%{http_code}]'"));
    expect(plain.text).toContain('wicket sandbox: 127.0.0.3 is not in sandbox.network.allowedDomains');
    expect(plain.text).toContain('[403]');
    const tunnel = await env.sh(curl(`https://blocked.example/`));
    expect(tunnel.text).toMatch(/403/);
    expect(tunnel.text).toContain('The sandbox blocked network access to blocked.example (not in sandbox.network.allowedDomains)');
    expect(hits).toEqual([]);
  });

  it('a denied domain wins over an allowed pattern', async () => {
    env = await sandboxEnv({ sandbox: { network: { allowedDomains: ['*'], deniedDomains: ['127.0.0.1', 'localhost'] } } });
    // A loopback name that is not allowed stays the sandbox's own (a server the command starts itself).
    const r = await env.sh(
      `${curl(`http://127.0.0.1:${port}/denied`)}; ${curl(`http://localhost:${port}/denied`)}; ${curl(`http://127.0.0.1:${port}/denied`, '--noproxy ""')}`,
    );
    expect(r.text).toContain('127.0.0.1 is not in sandbox.network.allowedDomains');
    expect(r.text).not.toContain('hello from the host');
    expect(hits).toEqual([]);
  });

  it('a server the command starts itself on localhost is reached directly', async () => {
    env = await sandboxEnv({ sandbox: { network: { allowedDomains: ['example.com'] } } });
    const r = await env.sh(
      `node -e "require('http').createServer((q, s) => s.end('its own server')).listen(8765, '127.0.0.1')" & for i in $(seq 1 200); do curl -s -m 2 -o /dev/null http://localhost:8765/ && break; sleep 0.05; done; ${curl('http://localhost:8765/')}; kill %1`,
    );
    expect(r.text).toContain('its own server');
  });

  it.each([
    ['curl --noproxy', `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${port}/direct`],
    ['bash /dev/tcp', `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /direct HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`],
    [
      'python socket',
      `python3 -c "import socket; s=socket.create_connection(('127.0.0.1', ${port}), 5); s.send(b'GET /direct HTTP/1.0\\r\\n\\r\\n'); print(s.recv(100))"`,
    ],
  ])('nothing gets around the proxy: %s', async (_what, command) => {
    env = await sandboxEnv({ sandbox: { network: { allowedDomains: ['127.0.0.1'] } } });
    const r = await env.sh(command);
    expect(r.text).not.toContain('hello from the host');
    expect(hits).toEqual([]);
  });

  it('without allowedDomains there is no network at all', async () => {
    env = await sandboxEnv();
    const r = await env.sh(`${curl(`http://127.0.0.1:${port}/none`)}; ${curl(`http://localhost:${port}/none`)}`);
    expect(r.text).not.toContain('hello from the host');
    expect(hits).toEqual([]);
  });
});

describe.skipIf(!canSandbox)('Unix sockets of this machine', () => {
  const servers: http.Server[] = [];
  afterAll(() => servers.forEach((srv) => srv.close()));

  /** An HTTP server on a Unix socket (as Docker's daemon is), at `file`. */
  async function socketServer(file: string): Promise<void> {
    mkdirSync(path.dirname(file), { recursive: true });
    const srv = http.createServer((_req, res) => res.end('daemon at your service'));
    servers.push(srv);
    await new Promise<void>((resolve) => srv.listen(file, resolve));
  }

  it('are hidden: a daemon in the home folder, an agent named by SSH_AUTH_SOCK; others, and allowUnixSockets, stay reachable', async () => {
    env = await sandboxEnv({
      sandbox: { network: { allowUnixSockets: ['~/.docker/run/allowed.sock'] } },
      env: (home) => ({ SSH_AUTH_SOCK: path.join(home, 'agent/ssh.sock') }),
    });
    const [docker, agent, allowed, plain] = ['.docker/run/docker.sock', 'agent/ssh.sock', '.docker/run/allowed.sock', 'work/app.sock'].map((p) =>
      env!.homeFile(p),
    );
    await Promise.all([docker, agent, allowed, plain].map((p) => socketServer(p!)));
    const ask = (sock: string) => `echo "--- ${path.basename(sock)}"; curl -sS -m 10 --unix-socket ${sock} http://daemon/; echo`;
    const r = await env.sh([docker, agent, allowed, plain].map((p) => ask(p!)).join('; '));
    const answer = (name: string) => r.text.split(`--- ${name}`)[1]!.split('---')[0];
    expect(answer('docker.sock')).not.toContain('daemon at your service');
    expect(answer('ssh.sock')).not.toContain('daemon at your service');
    expect(answer('allowed.sock')).toContain('daemon at your service');
    expect(answer('app.sock')).toContain('daemon at your service');
  });
});

describe('a socat that cannot run is named for what is wrong', () => {
  let dir = '';
  beforeAll(() => void (dir = mkdtempSync(path.join(VISIBLE_TMP, 'wicket-socat-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('one that is not there: not installed', async () => {
    const r = await socatAvailability(path.join(dir, 'missing-socat'));
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/missing-socat\) is not installed/) });
  });

  it('one that cannot be executed: says so, not "not installed"', async () => {
    const file = path.join(dir, 'not-executable');
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o644);
    const r = await socatAvailability(file);
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/cannot be executed \(EACCES\)/) });
    expect(r.ok || r.reason).not.toMatch(/not installed/);
  });

  it('one that fails: its own message', async () => {
    const file = path.join(dir, 'failing-socat');
    writeFileSync(file, '#!/bin/sh\necho "socat: library missing" >&2\nexit 3\n');
    chmodSync(file, 0o755);
    const r = await socatAvailability(file);
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/socat does not run: .* exited with 3: socat: library missing/) });
  });

  it.skipIf(!('path' in resolveProgram('socat')))('an installed one works even when the working folder is gone', async () => {
    const link = path.join(dir, 'socat-link');
    symlinkSync((resolveProgram('socat') as { path: string }).path, link);
    const gone = mkdtempSync(path.join(VISIBLE_TMP, 'wicket-gone-'));
    const here = process.cwd();
    process.chdir(gone);
    rmSync(gone, { recursive: true });
    try {
      expect(await socatAvailability(link)).toMatchObject({ ok: true });
    } finally {
      process.chdir(here);
    }
  });

  it.skipIf(!canSandbox)('Bash refuses, with that reason, when domains are allowed and socat cannot run', async () => {
    env = await sandboxEnv({ sandbox: { socatPath: path.join(dir, 'missing-socat'), network: { allowedDomains: ['localhost'] } }, files: { 'v.txt': 'v' } });
    expect(readSandboxSettings(env.ctx.settings, env.ctx).socatPath).toContain('missing-socat');
    const r = await env.sh('rm v.txt');
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/missing-socat\) is not installed/);
  });
});
