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

function randomBytes16(): Buffer {
  const buf = Buffer.alloc(16);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, buf, 0, 16, null) === 16) return buf;
    } finally {
      closeSync(fd);
    }
  } catch {
    // no /dev/urandom here
  }
  return process.getBuiltinModule('node:crypto').randomBytes(16);
}
