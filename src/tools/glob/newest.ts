/**
 * Keeps the `capacity` newest files seen, so a Glob over a million files holds a hundred entries,
 * not a million. Ties on mtime are broken by path (rg order), so the result is deterministic.
 */
import { comparePaths } from '../ripgrep/common.js';

export interface FileEntry {
  path: string;
  mtimeMs: number;
}

/** Newer first; equal times in path order. */
export function compareNewest(a: FileEntry, b: FileEntry): number {
  if (a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
  return comparePaths(a.path, b.path);
}

export class NewestFiles {
  /** Sorted by compareNewest, at most `capacity` long. */
  private readonly items: FileEntry[] = [];

  constructor(readonly capacity: number) {}

  add(entry: FileEntry): void {
    const items = this.items;
    if (items.length >= this.capacity) {
      if (this.capacity === 0 || compareNewest(entry, items[items.length - 1]!) >= 0) return;
      items.pop();
    }
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareNewest(items[mid]!, entry) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, entry);
  }

  /** The kept entries, newest first. */
  list(): readonly FileEntry[] {
    return this.items;
  }
}
