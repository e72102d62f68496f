/**
 * A 15-minute cache of fetched pages by URL, so a repeated fetch costs no network and, for the same
 * prompt, no small-model call either. Bounded by entry count and by the characters it holds; the
 * least recently used entry goes first. Only successful fetches are cached, never failures.
 */

export const CACHE_TTL_MS = 15 * 60 * 1000;
export const CACHE_MAX_ENTRIES = 64;
export const CACHE_MAX_CHARS = 20_000_000;
/** Answers kept per page (one per distinct prompt). */
const MAX_ANSWERS = 8;

/** A converted page (or a redirect we did not follow), as call() stored it. */
export type CachedPage =
  | {
      kind: 'page';
      finalUrl: string;
      status: number;
      statusText: string;
      contentType: string;
      bytes: number;
      truncated: boolean;
      markdown: string;
      /** How the body was read, e.g. "PDF, 3 pages" or why HTML fell back to plain text. */
      note?: string;
      /** Small-model answers by prompt. */
      answers: Map<string, string>;
    }
  | { kind: 'redirect'; status: number; location: string };

interface Slot {
  page: CachedPage;
  storedAt: number;
  chars: number;
}

export interface CacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  maxChars?: number;
  now?: () => number;
}

export class PageCache {
  private readonly slots = new Map<string, Slot>();
  private chars = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly now: () => number;

  constructor(opts: CacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? CACHE_TTL_MS;
    this.maxEntries = opts.maxEntries ?? CACHE_MAX_ENTRIES;
    this.maxChars = opts.maxChars ?? CACHE_MAX_CHARS;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.slots.size;
  }

  /** The page for `key` if stored less than the TTL ago; refreshes its place in the LRU order. */
  get(key: string): CachedPage | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (this.now() - slot.storedAt >= this.ttlMs) {
      this.delete(key);
      return undefined;
    }
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.page;
  }

  set(key: string, page: CachedPage): void {
    this.delete(key);
    const chars = sizeOf(page);
    if (chars > this.maxChars) return;
    this.slots.set(key, { page, storedAt: this.now(), chars });
    this.chars += chars;
    this.evict();
  }

  /** Remembers a small-model answer for a cached page (bounded per page). */
  addAnswer(key: string, prompt: string, answer: string): void {
    const slot = this.slots.get(key);
    if (!slot || slot.page.kind !== 'page') return;
    const answers = slot.page.answers;
    if (answers.size >= MAX_ANSWERS) {
      const oldest = answers.keys().next().value;
      if (oldest !== undefined) {
        const removed = oldest.length + (answers.get(oldest)?.length ?? 0);
        slot.chars -= removed;
        this.chars -= removed;
        answers.delete(oldest);
      }
    }
    answers.set(prompt, answer);
    slot.chars += prompt.length + answer.length;
    this.chars += prompt.length + answer.length;
    this.evict();
  }

  clear(): void {
    this.slots.clear();
    this.chars = 0;
  }

  private delete(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.chars -= slot.chars;
    this.slots.delete(key);
  }

  private evict(): void {
    while (this.slots.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.slots.keys().next().value;
      if (oldest === undefined) return;
      this.delete(oldest);
    }
  }
}

function sizeOf(page: CachedPage): number {
  if (page.kind === 'redirect') return page.location.length + 64;
  let n = page.markdown.length + page.finalUrl.length + 64;
  for (const [p, a] of page.answers) n += p.length + a.length;
  return n;
}
