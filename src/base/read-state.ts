/**
 * What the model has seen of each file: the version (mtime + content hash) it read and the line
 * ranges. Edit and Write count on it (read-before-write); Read uses it to answer "unchanged".
 * Memory stays small: one hash and a few ranges per file, never the content.
 */
export interface FileVersion {
  mtimeMs: number;
  size: number;
  /** Checksum of the raw bytes (fs/version.ts). */
  hash: string;
}

export interface ReadRange {
  /** 1-based first line; for whole-file reads, offset 1. */
  offset: number;
  /** Number of lines asked for (undefined = default window). */
  limit?: number;
}

export interface ReadEntry {
  version: FileVersion;
  ranges: ReadRange[];
  /** True when the entry came from our own write (Edit/Write), not a Read. */
  fromWrite?: boolean;
}

export class ReadState {
  private readonly files = new Map<string, ReadEntry>();

  get(path: string): ReadEntry | undefined {
    return this.files.get(path);
  }

  /** Record a read of `range` at `version`. A new version forgets the old ranges. */
  recordRead(path: string, version: FileVersion, range: ReadRange): void {
    const prev = this.files.get(path);
    if (prev && sameVersion(prev.version, version)) {
      if (!prev.ranges.some((r) => r.offset === range.offset && r.limit === range.limit)) prev.ranges.push(range);
      prev.fromWrite = false;
      return;
    }
    this.files.set(path, { version, ranges: [range] });
  }

  /** After our own write the file counts as read in full at its new version. */
  recordWrite(path: string, version: FileVersion): void {
    this.files.set(path, { version, ranges: [], fromWrite: true });
  }

  forget(path: string): void {
    this.files.delete(path);
  }

  get size(): number {
    return this.files.size;
  }

  paths(): string[] {
    return [...this.files.keys()];
  }
}

export function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.hash === b.hash && a.size === b.size;
}
