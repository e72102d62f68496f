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

/**
 * A 32-bit FNV-1a hash of a string's UTF-16 code units, as 8 hex digits: for naming cache entries
 * that hold their own key (a collision is found by comparing it), without loading node:zlib.
 */
export function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The version of a file whose whole content is in memory. */
export function versionOf(bytes: Uint8Array, stats: Pick<Stats, 'mtimeMs'>): FileVersion {
  return { mtimeMs: stats.mtimeMs, size: bytes.length, hash: hashBytes(bytes) };
}
