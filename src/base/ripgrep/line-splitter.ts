/**
 * Splits a byte stream into lines on one delimiter byte (`\n`, or NUL for rg's `--null` lists).
 * Works on bytes, so a multi-byte character split across chunks is never corrupted, and keeps at
 * most `maxLineBytes` of an unfinished line: a longer line is cut and the rest dropped up to the next
 * delimiter, so one huge line (a minified file, a binary blob) cannot grow memory without bound.
 */
export interface SplitterOptions {
  delimiter?: '\n' | '\0';
  /** Longest line kept, in bytes; the rest of a longer line is dropped. Default 64 KiB. */
  maxLineBytes?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024;

export class LineSplitter {
  private readonly delimiter: number;
  private readonly maxLineBytes: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while dropping the rest of a line that was already cut. */
  private dropping = false;
  private cutPending = false;

  constructor(opts: SplitterOptions = {}) {
    this.delimiter = (opts.delimiter ?? '\n').charCodeAt(0);
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /**
   * Feeds one chunk; calls `emit` for every completed line (without its delimiter). `emit` returns
   * false to stop: push then returns false and ignores the rest of the chunk.
   */
  push(chunk: Buffer, emit: (line: string, cut: boolean) => boolean | void): boolean {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(this.delimiter, start);
      if (end === -1) break;
      const line = this.takeLine(chunk, start, end);
      start = end + 1;
      if (line !== undefined && emit(line.text, line.cut) === false) return false;
    }
    this.keep(chunk, start, chunk.length);
    return true;
  }

  /** The last line when the stream ended without a delimiter, if any. */
  flush(emit: (line: string, cut: boolean) => boolean | void): void {
    if (this.pendingBytes === 0 && !this.cutPending) return;
    const text = Buffer.concat(this.pending).toString('utf8');
    const cut = this.cutPending;
    this.reset();
    emit(text, cut);
  }

  private takeLine(chunk: Buffer, start: number, end: number): { text: string; cut: boolean } | undefined {
    if (this.pendingBytes === 0 && !this.dropping) {
      const len = end - start;
      if (len <= this.maxLineBytes) return { text: chunk.toString('utf8', start, end), cut: false };
      return { text: chunk.toString('utf8', start, start + this.maxLineBytes), cut: true };
    }
    this.keep(chunk, start, end);
    const text = Buffer.concat(this.pending).toString('utf8');
    const cut = this.cutPending;
    this.reset();
    return { text, cut };
  }

  /** Appends bytes of an unfinished line, up to the cap. */
  private keep(chunk: Buffer, start: number, end: number): void {
    if (this.dropping || start >= end) return;
    const room = this.maxLineBytes - this.pendingBytes;
    const len = end - start;
    const take = Math.min(room, len);
    if (take > 0) {
      this.pending.push(Buffer.from(chunk.subarray(start, start + take)));
      this.pendingBytes += take;
    }
    if (len > room) {
      this.dropping = true;
      this.cutPending = true;
    }
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.dropping = false;
    this.cutPending = false;
  }
}
