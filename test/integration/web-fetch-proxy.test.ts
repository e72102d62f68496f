/**
 * WebFetch through HTTPS_PROXY with the built binary: a CONNECT tunnel to a page this machine cannot
 * resolve, served over TLS with a certificate the child trusts through NODE_EXTRA_CA_CERTS.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();

describe('WebFetch through a proxy', () => {
  it('fetches an https page through a CONNECT tunnel; the proxy resolves the name', async () => {
    const certs = path.join(t.project.home, 'certs');
    mkdirSync(certs);
    const [key, cert] = [path.join(certs, 'key.pem'), path.join(certs, 'cert.pem')];
    const subject = ['-subj', '/CN=docs.proxied.test', '-addext', 'subjectAltName=DNS:docs.proxied.test'];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', ...subject], { stdio: 'ignore' });
    const site = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Proxied guide</h1><p>Reachable through the proxy only.</p></body></html>');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const tunnels: string[] = [];
    const proxy = createHttpServer();
    proxy.on('connect', (req, client, head) => {
      tunnels.push(req.url ?? '');
      const upstream = connect((site.address() as AddressInfo).port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      t.api.script(
        reply().toolUse('WebFetch', { url: 'https://docs.proxied.test/guide', prompt: 'What does it say?' }, { id: 'toolu_w' }),
        reply().text('It is reachable through the proxy only.'), // the small model's answer about the page
        reply().text('done'),
      );
      const env = { HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, NODE_EXTRA_CA_CERTS: cert };
      const r = await t.run(['-p', 'read https://docs.proxied.test/guide'], { env });
      expectExit(r, 0);
      expect(tunnels).toEqual(['docs.proxied.test:443']);
      const smallModelPrompt = JSON.stringify(t.api.messageRequests()[1]!.body);
      expect(smallModelPrompt).toContain('Proxied guide');
      const result = toolResultIn(t.api.messageRequests()[2]!.body, 'toolu_w');
      expect(JSON.stringify(result)).toContain('It is reachable through the proxy only.');
    } finally {
      site.close();
      proxy.close();
    }
  });
});
