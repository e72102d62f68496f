/**
 * NODE_EXTRA_CA_CERTS, read when it is needed. Node reads the file as it starts, before any code
 * runs, and builds its whole certificate store then: about 90 ms on a small machine, paid by every
 * run, also by those that open no TLS connection (`--version`, an API reached over plain HTTP).
 * The launcher (bin/wicket.js) hands the file name over in WICKET_EXTRA_CA_CERTS instead; it goes
 * back into NODE_EXTRA_CA_CERTS at once, so every process wicket starts sees it as before, and its
 * certificates are added to this process's TLS contexts when the first one is made.
 */
import type { SecureContext, SecureContextOptions } from 'node:tls';

const HANDED_OVER = 'WICKET_EXTRA_CA_CERTS';

/**
 * The file whose certificates TLS contexts still need, until they are added. On globalThis: the
 * entry, the main bundle and the libraries' bundles each have a copy of this module.
 */
const PENDING = Symbol.for('wicket.extraCA');
type Slot = { [PENDING]?: string };

/**
 * Takes the file back from the launcher (called first by the entry). Returns a warning when the
 * file cannot be read, as Node gives one; the run goes on without it.
 */
export function adoptExtraCA(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = env[HANDED_OVER];
  delete env[HANDED_OVER];
  if (!file) return undefined;
  env.NODE_EXTRA_CA_CERTS = file;
  try {
    process.getBuiltinModule('node:fs').accessSync(file, 4 /* R_OK */);
  } catch (err) {
    return `Warning: ignoring the extra certificates in ${file} (NODE_EXTRA_CA_CERTS): ${(err as Error).message}`;
  }
  (globalThis as Slot)[PENDING] = file;
  wrapFetch();
  return undefined;
}

/**
 * Makes every TLS context of this process trust the extra certificates, before its first TLS
 * connection. Code that connects with TLS calls this first; `fetch` does it by itself.
 */
export function useExtraCA(): void {
  const slot = globalThis as Slot;
  const file = slot[PENDING];
  if (file === undefined) return;
  delete slot[PENDING];
  let pem: Buffer | undefined;
  try {
    pem = process.getBuiltinModule('node:fs').readFileSync(file);
  } catch {
    return; // gone since the start: TLS goes on with Node's own certificates, as Node would
  }
  extendDefaultContexts(pem);
}

/** The options that decide what a context holds; connection options (host, port, session) do not. */
const CONTEXT_OPTIONS = [
  'cert',
  'key',
  'pfx',
  'passphrase',
  'crl',
  'ciphers',
  'sigalgs',
  'ecdhCurve',
  'dhparam',
  'honorCipherOrder',
  'secureProtocol',
  'minVersion',
  'maxVersion',
  'secureOptions',
  'sessionIdContext',
  'ticketKeys',
  'sessionTimeout',
  'clientCertEngine',
  'privateKeyEngine',
  'privateKeyIdentifier',
  'allowPartialTrustChain',
] as const;

/**
 * Node's contexts without a `ca` of their own trust its root certificates (and, had Node read the
 * file, the extra ones). Those contexts now get the extra certificates added; one made from the
 * same options is reused, because each addition parses the whole file. A caller that names its
 * own `ca` trusts exactly that, as with Node.
 */
function extendDefaultContexts(pem: Buffer): void {
  const tls = process.getBuiltinModule('node:tls');
  const original = tls.createSecureContext;
  const made = new Map<string, SecureContext>();
  tls.createSecureContext = function createSecureContext(options?: SecureContextOptions): SecureContext {
    if (options?.ca !== undefined && options.ca !== null) return original(options);
    const key = keyOf(options);
    const known = key === undefined ? undefined : made.get(key);
    if (known) return known;
    const context = withExtra(original, options, pem, tls.rootCertificates);
    if (key !== undefined) made.set(key, context);
    return context;
  };
}

type Inner = { addCACert?: (pem: Buffer) => void };

function withExtra(
  original: (o?: SecureContextOptions) => SecureContext,
  options: SecureContextOptions | undefined,
  pem: Buffer,
  roots: readonly string[],
): SecureContext {
  const context = original(options);
  const inner = (context as unknown as { context?: Inner }).context;
  if (typeof inner?.addCACert === 'function') {
    inner.addCACert(pem);
    return context;
  }
  return original({ ...options, ca: [...roots, pem] }); // a Node without the internal call: slower, same trust
}

/** A key for contexts made from these options, or undefined when they hold more than plain values. */
function keyOf(options: SecureContextOptions | undefined): string | undefined {
  const values: unknown[] = [];
  for (const name of CONTEXT_OPTIONS) {
    const value = (options as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined && value !== null && typeof value === 'object') return undefined;
    values.push(value ?? null);
  }
  return JSON.stringify(values);
}

/** The global `fetch` adds the certificates before its first request. */
function wrapFetch(): void {
  const original = globalThis.fetch;
  if (typeof original !== 'function') return;
  globalThis.fetch = (...args: Parameters<typeof original>) => {
    useExtraCA();
    return original(...args);
  };
}
