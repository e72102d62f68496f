/**
 * File versions: what "unchanged since read" is measured against (size and content checksum, not
 * mtime alone). The checksum is CRC-32 from zlib: beside the size, an accidental change goes unseen
 * about once in four billion, which is all this check is for, and it costs a run that reads a file
 * about 2 ms where node:crypto's sha256 cost about 10 ms to load.
 */
import type { Stats } from 'node:fs';
import type { FileVersion } from '../read-state.js';

/** A checksum fed in pieces, for content that is read in chunks. */
export class ContentChecksum {
  private value = 0;

  update(chunk: Uint8Array): void {
    this.value = process.getBuiltinModule('node:zlib').crc32(chunk, this.value);
  }

  digest(): string {
    return (this.value >>> 0).toString(16).padStart(8, '0');
  }
}

export function hashBytes(bytes: Uint8Array): string {
  const sum = new ContentChecksum();
  sum.update(bytes);
  return sum.digest();
}

/** The version of a file whose whole content is in memory. */
export function versionOf(bytes: Uint8Array, stats: Pick<Stats, 'mtimeMs'>): FileVersion {
  return { mtimeMs: stats.mtimeMs, size: bytes.length, hash: hashBytes(bytes) };
}
