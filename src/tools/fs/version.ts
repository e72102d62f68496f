/** File versions: what "unchanged since read" is measured against (size and content hash, not mtime alone). */
import type { Stats } from 'node:fs';
import type { FileVersion } from '../read-state.js';

export function hashBytes(bytes: Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
}

/** The version of a file whose whole content is in memory. */
export function versionOf(bytes: Uint8Array, stats: Pick<Stats, 'mtimeMs'>): FileVersion {
  return { mtimeMs: stats.mtimeMs, size: bytes.length, hash: hashBytes(bytes) };
}
