/**
 * An HTTPS front for the fake API (test/support/tls-front.ts), and a bundle for
 * NODE_EXTRA_CA_CERTS that is the system's certificates plus the front's, as a company's usually is.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import { makeLocalhostCert, startTlsFront as startFront } from '../test/support/tls-front.js';

export interface BenchTlsFront {
  url: string;
  /** A PEM bundle for NODE_EXTRA_CA_CERTS that trusts the front. */
  bundle: string;
  close(): void;
}

export async function startTlsFront(target: string): Promise<BenchTlsFront> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-bench-tls-'));
  const certs = makeLocalhostCert(dir);
  const bundle = path.join(dir, 'bundle.pem');
  writeFileSync(bundle, [...rootCertificates, readFileSync(certs.cert, 'utf8')].join('\n'));
  const front = await startFront(target, certs);
  return {
    url: front.url,
    bundle,
    close: () => {
      front.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
