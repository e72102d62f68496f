/**
 * Bounded holders for rg's output.
 *
 * - Pager: skips `offset` lines, keeps one page (at most `limit` lines and `maxChars` characters),
 *   and reports whether anything came after. It tells its feeder to stop one line past the page.
 * - ContentBuffer / ListBuffer: hold a whole result from a parallel rg run so it can be put in path
 *   order, but only up to a byte budget; past it they report overflow and the search is redone in
 *   path order, streamed (see search.ts).
 */
import { comparePaths, stripDotSlash } from '../ripgrep/common.js';
import { type ContentLine, SEPARATOR } from './lines.js';

export class Pager {
  readonly lines: string[] = [];
  /** Lines seen, skipped ones included. */
  seen = 0;
  /** Something came after the page. */
  more = false;
  /** The page ended early because of the character budget. */
  cutAtChars = false;
  private chars = 0;

  constructor(
    readonly offset: number,
    /** 0 = no line limit (the character budget still holds). */
    readonly limit: number,
    readonly maxChars: number,
  ) {}

  /** Offers the next line; false means the page is full and the feeder should stop. */
  push(line: string): boolean {
    this.seen++;
    if (this.seen <= this.offset) return true;
    if (this.limit > 0 && this.lines.length >= this.limit) {
      this.more = true;
      return false;
    }
    const cost = line.length + 1;
    if (this.chars + cost > this.maxChars && this.lines.length > 0) {
      this.more = true;
      this.cutAtChars = true;
      return false;
    }
    this.lines.push(cost > this.maxChars ? line.slice(0, this.maxChars - 1) : line);
    this.chars += cost;
    return true;
  }

  /** The offset that continues after this page. */
  get nextOffset(): number {
    return this.offset + this.lines.length;
  }
}

/** Per-file blocks of content lines from a parallel rg run, in the order files finished. */
export class ContentBuffer {
  private readonly blocks = new Map<string, string[]>();
  private lastPath: string | undefined;
  private pendingSeparator = false;
  private bytes = 0;
  overflowed = false;
  /** Lines that carried no path (rg notices); kept apart and shown first. */
  readonly notes: string[] = [];

  constructor(private readonly maxBytes: number) {}

  /** Adds one parsed line; false once the byte budget is used up. */
  add(line: ContentLine | string): boolean {
    if (line === SEPARATOR) {
      this.pendingSeparator = true;
      return true;
    }
    if (typeof line === 'string') {
      this.notes.push(line);
      return this.charge(line.length);
    }
    let block = this.blocks.get(line.path);
    if (!block) {
      block = [];
      this.blocks.set(line.path, block);
      this.charge(line.path.length + 96);
    }
    // rg prints a file's lines together; a `--` between two lines of one file separates its groups,
    // one between files is put back by `lines()`.
    if (this.pendingSeparator && this.lastPath === line.path) block.push(SEPARATOR);
    this.pendingSeparator = false;
    this.lastPath = line.path;
    block.push(line.body);
    // Strings cost more than their characters: about 48 bytes of headers per line.
    return this.charge(line.body.length + 48);
  }

  private charge(n: number): boolean {
    this.bytes += n;
    if (this.bytes > this.maxBytes) this.overflowed = true;
    return !this.overflowed;
  }

  /**
   * Every line in path order, the way `rg --sort path` prints it: `--` between files when context
   * lines were asked for. `format` turns (path, body) into the displayed line.
   */
  *lines(withContext: boolean, format: (path: string, body: string) => string): Generator<string> {
    yield* this.notes;
    const paths = [...this.blocks.keys()].sort((a, b) => comparePaths(stripDotSlash(a), stripDotSlash(b)));
    let first = true;
    for (const p of paths) {
      if (withContext && !first) yield SEPARATOR;
      first = false;
      for (const body of this.blocks.get(p)!) yield body === SEPARATOR ? SEPARATOR : format(p, body);
    }
  }

  /** How many lines `lines(withContext)` yields. */
  lineCount(withContext: boolean): number {
    let n = this.notes.length;
    for (const block of this.blocks.values()) n += block.length;
    return withContext && this.blocks.size > 1 ? n + this.blocks.size - 1 : n;
  }

  get fileCount(): number {
    return this.blocks.size;
  }
}

/**
 * One entry per file (files_with_matches, count), from a parallel rg run. Besides the byte budget it
 * holds at most `maxEntries`: past that many files the totals are not worth the wait (counting reads
 * every file to its end), and the streamed step answers sooner.
 */
export class ListBuffer {
  readonly entries: Array<{ path: string; count: number }> = [];
  private bytes = 0;
  overflowed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly maxEntries = 10_000,
  ) {}

  add(path: string, count: number): boolean {
    this.entries.push({ path, count });
    this.bytes += path.length + 64;
    if (this.bytes > this.maxBytes || this.entries.length > this.maxEntries) this.overflowed = true;
    return !this.overflowed;
  }

  sorted(): Array<{ path: string; count: number }> {
    return [...this.entries].sort((a, b) => comparePaths(stripDotSlash(a.path), stripDotSlash(b.path)));
  }
}
