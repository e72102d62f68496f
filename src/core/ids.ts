/**
 * Random v4 UUIDs for session and message ids, from the kernel's random source. Loading
 * node:crypto costs about 10 ms at start-up, and a run that only talks has no other use for it;
 * where /dev/urandom is missing (Windows), node:crypto supplies the bytes.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export function randomUuid(): string {
  const b = randomBytes16();
  b[6] = (b[6]! & 0x0f) | 0x40; // version 4
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Random bytes are read 64 ids' worth at a time. */
const POOL_BYTES = 1024;
let pool: Buffer = Buffer.alloc(0);
let used = 0;

function randomBytes16(): Buffer {
  if (used + 16 > pool.length) {
    pool = readUrandom(POOL_BYTES) ?? process.getBuiltinModule('node:crypto').randomBytes(POOL_BYTES);
    used = 0;
  }
  const out = Buffer.from(pool.subarray(used, used + 16));
  pool.fill(0, used, used + 16); // a byte handed out is not kept
  used += 16;
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
