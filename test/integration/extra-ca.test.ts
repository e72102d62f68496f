/**
 * NODE_EXTRA_CA_CERTS with wicket run as a command: the launcher defers the certificates to the
 * first TLS connection, and they are trusted there (the API over https, an https hook), while the
 * processes wicket starts still see the variable as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Server as TlsServer } from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';
import { makeLocalhostCert, startTlsFront } from '../support/tls-front.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
type Body = { messages: Array<{ role: string; content: any }> };

let cert = '';
let key = '';
const servers: Array<TlsServer | HttpsServer | HttpServer> = [];

beforeEach(() => {
  ({ cert, key } = makeLocalhostCert(t.project.home));
});
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function listen<S extends TlsServer | HttpsServer>(server: S): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The fake API behind TLS with the test's certificate. */
async function httpsApi(): Promise<string> {
  const front = await startTlsFront(t.api.url, { cert, key });
  servers.push(front.server);
  return front.url;
}

/** An https UserPromptSubmit hook that adds context, configured in the project's settings. */
async function httpsHook(): Promise<void> {
  const hook = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    req.resume();
    const out = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'context from the https hook' } };
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out)));
  });
  const url = `https://localhost:${await listen(hook)}/hook`;
  await t.project.write('.claude/settings.json', JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'http', url }] }] } }));
}

describe('NODE_EXTRA_CA_CERTS, wicket run as a command', () => {
  it('trusts the file for the API over https and for an https hook, and the Bash tool still sees the variable', async () => {
    await httpsHook();
    const echo = 'echo "extra=$NODE_EXTRA_CA_CERTS handed=${WICKET_EXTRA_CA_CERTS-none}"';
    t.api.script(reply().toolUse('Bash', { command: echo }, { id: 'toolu_env' }), reply().text('all good'));
    const env = { NODE_EXTRA_CA_CERTS: cert, WICKET_MAX_RETRIES: '0' };
    const r = await t.run(['-p', 'check', '--allowedTools', 'Bash'], { baseUrl: await httpsApi(), env, asCommand: true });
    expectExit(r, 0);
    expect(r.stdout).toBe('all good\n');
    const [first, second] = t.api.messageRequests().map((q) => q.body as Body);
    expect(JSON.stringify(first!.messages[0])).toContain('context from the https hook');
    expect(JSON.stringify(toolResultIn(second, 'toolu_env').content)).toContain(`extra=${cert} handed=none`);
  });

  it("with the API over plain http, the first https request (a hook's fetch) is the one that trusts the file", async () => {
    await httpsHook();
    t.api.script(reply().text('fine'), reply().text('fine'));
    const withFile = await t.run(['-p', 'check'], { asCommand: true, env: { NODE_EXTRA_CA_CERTS: cert } });
    const without = await t.run(['-p', 'check'], { asCommand: true });
    expectExit(withFile, 0);
    expectExit(without, 0);
    const [first, second] = t.api.messageRequests().map((q) => JSON.stringify((q.body as Body).messages[0]));
    expect(first).toContain('context from the https hook');
    expect(second).not.toContain('context from the https hook');
  });

  it('trusts the file for the API reached through HTTPS_PROXY (no early connection then)', async () => {
    const api = new URL(await httpsApi());
    const tunnels: string[] = [];
    const proxy = createHttpServer();
    proxy.on('connect', (req, client, head) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(Number(api.port), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    t.api.script(reply().text('through the tunnel'));
    const env = { NODE_EXTRA_CA_CERTS: cert, HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, WICKET_MAX_RETRIES: '0' };
    const r = await t.run(['-p', 'hi'], { baseUrl: api.href.replace(/\/$/, ''), env, asCommand: true });
    expectExit(r, 0);
    expect(r.stdout).toBe('through the tunnel\n');
    expect(tunnels).toEqual([`localhost:${api.port}`]);
  });

  it('a file that cannot be read is a warning, and the run goes on', async () => {
    t.api.script(reply().text('still here'));
    const missing = path.join(t.project.home, 'no-such-bundle.pem');
    const r = await t.run(['-p', 'hi'], { env: { NODE_EXTRA_CA_CERTS: missing }, asCommand: true });
    expectExit(r, 0);
    expect(r.stdout).toBe('still here\n');
    expect(r.stderr).toContain(`Warning: ignoring the extra certificates in ${missing} (NODE_EXTRA_CA_CERTS)`);
  });

  it('answers --version as a command, with and without the variable', async () => {
    const plain = await t.run(['--version'], { asCommand: true });
    const withCerts = await t.run(['--version'], { asCommand: true, env: { NODE_EXTRA_CA_CERTS: cert } });
    for (const r of [plain, withCerts]) {
      expectExit(r, 0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+ \(wicket\)\n$/);
    }
  });

  it('a bundle of several certificates is read whole', async () => {
    const bundle = path.join(t.project.home, 'bundle.pem');
    const other = makeLocalhostCert(t.project.home, 'other', 'other').cert;
    writeFileSync(bundle, readFileSync(other, 'utf8') + readFileSync(cert, 'utf8'));
    t.api.script(reply().text('through the bundle'));
    const r = await t.run(['-p', 'hi'], { baseUrl: await httpsApi(), env: { NODE_EXTRA_CA_CERTS: bundle, WICKET_MAX_RETRIES: '0' }, asCommand: true });
    expectExit(r, 0);
    expect(r.stdout).toBe('through the bundle\n');
  });
});
