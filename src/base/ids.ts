/**
 * Random v4 UUIDs for session and message ids (and short random hex), from the kernel's random source. Loading
 * node:crypto costs about 10 ms at start-up, and a run that only talks has no other use for it;
 * where /dev/urandom is missing (Windows), node:crypto supplies the bytes.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export function randomUuid(): string {
  const b = takeRandom(16);
  b[6] = (b[6]! & 0x0f) | 0x40; // version 4
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `bytes` random bytes as hex, for short ids, markers and file names (at most 64 bytes). */
export function randomHex(bytes: number): string {
  return takeRandom(Math.min(Math.max(1, bytes), 64)).toString('hex');
}

/** Random bytes are read 64 ids' worth at a time. */
const POOL_BYTES = 1024;
let pool: Buffer = Buffer.alloc(0);
let used = 0;

function takeRandom(n: number): Buffer {
  if (used + n > pool.length) {
    pool = readUrandom(POOL_BYTES) ?? process.getBuiltinModule('node:crypto').randomBytes(POOL_BYTES);
    used = 0;
  }
  const out = Buffer.from(pool.subarray(used, used + n));
  pool.fill(0, used, used + n); // a byte handed out is not kept
  used += n;
  return out;
}

function readUrandom(n: number): Buffer | undefined {
  const buf = Buffer.alloc(n);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      return readSync(fd, buf, 0, n, null) === n ? buf : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // no /dev/urandom here
  }
}
