/**
 * An HTTPS front for the fake API: a certificate made with openssl for localhost, and a TLS server
 * that pipes each connection to the fake server. The bundle it writes is the system's certificates
 * plus that one, as a company's NODE_EXTRA_CA_CERTS usually is.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, rootCertificates } from 'node:tls';

export interface TlsFront {
  url: string;
  /** A PEM bundle for NODE_EXTRA_CA_CERTS that trusts the front. */
  bundle: string;
  close(): void;
}

export async function startTlsFront(target: string): Promise<TlsFront> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-bench-tls-'));
  const [key, cert, bundle] = ['key.pem', 'cert.pem', 'bundle.pem'].map((f) => path.join(dir, f)) as [string, string, string];
  const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', ...subject], { stdio: 'ignore' });
  writeFileSync(bundle, [...rootCertificates, readFileSync(cert, 'utf8')].join('\n'));
  const up = new URL(target);
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (s) => {
    const upstream = connect(Number(up.port), up.hostname);
    s.pipe(upstream).pipe(s);
    s.on('error', () => upstream.destroy());
    upstream.on('error', () => s.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    bundle,
    close: () => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
