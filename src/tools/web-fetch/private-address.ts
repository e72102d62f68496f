/**
 * Which addresses a fetch may reach without asking. Private, link-local and cloud-metadata
 * addresses ask even when a domain rule allows the name, because a public-looking name can resolve
 * into the local network (SSRF). Loopback is fine: it is the user's own machine, and tests use it.
 */
import { isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unique-local' | 'unspecified' | 'reserved';

/** Classes that need a person's yes before a fetch goes there. */
export function isRestrictedClass(c: AddressClass): boolean {
  return c !== 'public' && c !== 'loopback';
}

/** Human wording for a reason line: "a private address (10.0.0.5)". */
export function describeClass(c: AddressClass): string {
  switch (c) {
    case 'private':
      return 'a private network address';
    case 'link-local':
      return 'a link-local address (where cloud metadata services live)';
    case 'unique-local':
      return 'a unique-local (private) IPv6 address';
    case 'unspecified':
      return 'the unspecified address (reaches this machine)';
    case 'reserved':
      return 'a reserved address';
    case 'loopback':
      return 'a loopback address';
    default:
      return 'a public address';
  }
}

/** Host names cloud providers use for their metadata services. */
export function isMetadataHost(host: string): boolean {
  const h = stripHost(host);
  return h === 'metadata' || h.startsWith('metadata.') || h === 'instance-data' || h.startsWith('instance-data.');
}

/** `localhost` and names under `.localhost` (RFC 6761) always mean this machine. */
export function isLocalhostName(host: string): boolean {
  const h = stripHost(host);
  return h === 'localhost' || h.endsWith('.localhost');
}

/** A host that is this machine, by name or by literal address. */
export function isLoopbackHost(host: string): boolean {
  return isLocalhostName(host) || classifyIp(stripHost(host)) === 'loopback';
}

/** Lower case, no IPv6 brackets, no trailing dot. */
export function stripHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/** The class of a literal IP address, or undefined when `ip` is not one. */
export function classifyIp(ip: string): AddressClass | undefined {
  const kind = isIP(ip);
  if (kind === 4) return classifyV4(ip.split('.').map(Number));
  if (kind === 6) return classifyV6(ip);
  return undefined;
}

function classifyV4(o: number[]): AddressClass {
  const [a = 0, b = 0, c = 0] = o;
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT, 100.64/10
  if (a === 169 && b === 254) return 'link-local';
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // IETF protocol assignments
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking, 198.18/15
  if (a >= 224) return 'reserved'; // multicast, 240/4, broadcast
  return 'public';
}

function classifyV6(ip: string): AddressClass {
  const words = expandV6(ip);
  if (!words) return 'reserved';
  if (words.every((w) => w === 0)) return 'unspecified';
  if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return 'loopback';
  const first = words[0] ?? 0;
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address at the end.
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  const nat64 = first === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (mapped || nat64) {
    const hi = words[6] ?? 0;
    const lo = words[7] ?? 0;
    return classifyV4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  }
  if ((first & 0xfe00) === 0xfc00) return 'unique-local'; // fc00::/7
  if ((first & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local, fec0::/10
  if ((first & 0xff00) === 0xff00) return 'reserved'; // multicast
  return 'public';
}

/** Eight 16-bit words of an IPv6 address (accepts a trailing dotted IPv4 part), or undefined. */
function expandV6(ip: string): number[] | undefined {
  let text = ip.split('%')[0] ?? '';
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const o = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${(((o[0] ?? 0) << 8) | (o[1] ?? 0)).toString(16)}:${(((o[2] ?? 0) << 8) | (o[3] ?? 0)).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const missing = 8 - h.length - t.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const words = [...h, ...Array<string>(missing).fill('0'), ...t].map((w) => parseInt(w, 16));
  return words.length === 8 && words.every((w) => w >= 0 && w <= 0xffff) ? words : undefined;
}

/** Resolves a host name to its addresses (all of them). Injected so tests control DNS. */
export type LookupFn = (host: string) => Promise<string[]>;

export const systemLookup: LookupFn = async (host) => {
  const { lookup: dnsLookup } = process.getBuiltinModule('node:dns/promises'); // loaded on the first fetch, not at start-up
  const found = await dnsLookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

/** What a host is: where it points, or why that could not be found out. */
export type HostVerdict =
  | { kind: 'ok'; cls: AddressClass; address?: string }
  | { kind: 'restricted'; cls: AddressClass | 'metadata'; address?: string }
  | { kind: 'unresolved'; message: string };

/**
 * Classifies a host without the network when it can (literal addresses, localhost, metadata
 * names) and otherwise by resolving it. A name is restricted when ANY of its addresses is.
 */
export async function checkHost(host: string, lookup: LookupFn, timeoutMs = 5_000): Promise<HostVerdict> {
  const literal = classifyHostLiterally(host);
  if (literal) return literal;
  let addresses: string[];
  try {
    addresses = await withTimeout(lookup(stripHost(host)), timeoutMs, `looking up ${host} took longer than ${timeoutMs} ms`);
  } catch (err) {
    return { kind: 'unresolved', message: dnsErrorText(host, err) };
  }
  if (addresses.length === 0) return { kind: 'unresolved', message: `${host} has no addresses` };
  for (const address of addresses) {
    const cls = classifyIp(address) ?? 'reserved';
    if (isRestrictedClass(cls)) return { kind: 'restricted', cls, address };
  }
  return { kind: 'ok', cls: classifyIp(addresses[0] ?? '') ?? 'public', address: addresses[0] };
}

/** The verdict for hosts that need no DNS: literal addresses, localhost and metadata names. */
export function classifyHostLiterally(host: string): HostVerdict | undefined {
  const h = stripHost(host);
  if (isMetadataHost(h)) return { kind: 'restricted', cls: 'metadata' };
  if (isLocalhostName(h)) return { kind: 'ok', cls: 'loopback' };
  const cls = classifyIp(h);
  if (!cls) return undefined;
  return isRestrictedClass(cls) ? { kind: 'restricted', cls, address: h } : { kind: 'ok', cls, address: h };
}

export function dnsErrorText(host: string, err: unknown): string {
  const code = (err as { code?: string } | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return `DNS lookup failed: ${host} does not exist (${code})`;
  if (code === 'EAI_AGAIN') return `DNS lookup failed: ${host} could not be resolved right now (EAI_AGAIN); the name server did not answer`;
  return `DNS lookup failed for ${host}: ${err instanceof Error ? err.message : String(err)}`;
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref?.();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
