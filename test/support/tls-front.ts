/**
 * HTTPS in front of a local plain-HTTP server (the fake API): a self-signed certificate for
 * localhost made with openssl, and a TLS server on 127.0.0.1 that pipes each connection to the
 * target. A child trusts it through NODE_EXTRA_CA_CERTS=<cert>.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import { createServer, type Server } from 'node:tls';

export interface LocalhostCert {
  /** The certificate's file (PEM), also its own CA. */
  cert: string;
  key: string;
}

/** Writes `<name>.pem` and `<name>-key.pem` into `dir`: a certificate for CN=localhost (or `cn`). */
export function makeLocalhostCert(dir: string, name = 'localhost', cn = 'localhost'): LocalhostCert {
  mkdirSync(dir, { recursive: true });
  const cert = path.join(dir, `${name}.pem`);
  const key = path.join(dir, `${name}-key.pem`);
  const subject = ['-subj', `/CN=${cn}`, '-addext', `subjectAltName=DNS:${cn}`];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', ...subject], { stdio: 'ignore' });
  return { cert, key };
}

export interface TlsFront {
  /** `https://localhost:<port>`. */
  url: string;
  port: number;
  server: Server;
  close(): void;
}

/** A TLS server with `certs` that pipes every connection to `target` (an http:// URL). */
export async function startTlsFront(target: string, certs: LocalhostCert): Promise<TlsFront> {
  const up = new URL(target);
  const server = createServer({ key: readFileSync(certs.key), cert: readFileSync(certs.cert) }, (s) => {
    const upstream = connect(Number(up.port), up.hostname);
    s.pipe(upstream).pipe(s);
    s.on('error', () => upstream.destroy());
    upstream.on('error', () => s.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `https://localhost:${port}`, port, server, close: () => server.close() };
}
