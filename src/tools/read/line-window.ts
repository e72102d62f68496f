/**
 * One streaming pass over a text file: hashes every byte (the version), counts the lines, and keeps
 * only the lines inside the requested window, each cut at the line limit. Memory stays bounded by
 * the window, whatever the file size or the length of its lines.
 */
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ToolError } from '../../base/errors.js';
import { createStreamDecoder, type EncodingInfo } from '../fs/encoding.js';
import { ContentChecksum } from '../../base/fs/version.js';
import { cutLine } from './format-lines.js';

export interface WindowOptions {
  /** 1-based first line to keep. */
  startLine: number;
  /** Most lines to keep. */
  limit: number;
  maxLineChars: number;
  /** Stop keeping lines once their text would pass this many characters. */
  maxOutputChars: number;
  signal?: AbortSignal;
  /** The file's size when opened, to size the read buffer. */
  sizeHint?: number;
}

export interface WindowResult {
  lines: string[];
  totalLines: number;
  cutLines: number;
  stoppedAtOutputCap: boolean;
  /** Checksum of the raw bytes (fs/version.ts). */
  hash: string;
  size: number;
  /** Nothing but whitespace (or nothing at all). */
  whitespaceOnly: boolean;
}

const CHUNK_BYTES = 256 * 1024;

class LineCollector {
  lines: string[] = [];
  lineNo = 0;
  cutLines = 0;
  stopped = false;
  private outputChars = 0;
  private cur = '';
  private curLen = 0;
  private endsWithCr = false;

  constructor(private readonly opts: WindowOptions) {}

  private collecting(): boolean {
    const n = this.lineNo + 1;
    return !this.stopped && n >= this.opts.startLine && n < this.opts.startLine + this.opts.limit;
  }

  push(text: string): void {
    let pos = 0;
    for (;;) {
      const nl = text.indexOf('\n', pos);
      const end = nl === -1 ? text.length : nl;
      if (end > pos) {
        if (this.collecting() && this.cur.length <= this.opts.maxLineChars) {
          this.cur += text.slice(pos, Math.min(end, pos + this.opts.maxLineChars + 2 - this.cur.length));
        }
        this.curLen += end - pos;
        this.endsWithCr = text.charCodeAt(end - 1) === 13;
      }
      if (nl === -1) return;
      this.finishLine();
      pos = nl + 1;
    }
  }

  /** The last line, when the file does not end with a newline. */
  end(): void {
    if (this.curLen > 0) this.finishLine();
  }

  private finishLine(): void {
    if (this.collecting()) {
      let text = this.cur;
      let len = this.curLen;
      if (this.endsWithCr) {
        len--;
        if (text.length > len) text = text.slice(0, len);
      }
      const { line, cut } = cutLine(text, len, this.opts.maxLineChars);
      if (this.outputChars + line.length + 8 > this.opts.maxOutputChars && this.lines.length > 0) {
        this.stopped = true;
      } else {
        this.lines.push(line);
        this.outputChars += line.length + 8;
        if (cut) this.cutLines++;
      }
    }
    this.lineNo++;
    this.cur = '';
    this.curLen = 0;
    this.endsWithCr = false;
  }
}

/** The pass itself: feed it the file's bytes in order, then ask for the result. */
class TextScan {
  private readonly hash = new ContentChecksum();
  private readonly decoder;
  private readonly lines: LineCollector;
  private size = 0;
  private bomLeft: number;
  private nonWhitespace = false;

  constructor(encoding: EncodingInfo, opts: WindowOptions) {
    this.decoder = createStreamDecoder(encoding.encoding);
    this.lines = new LineCollector(opts);
    this.bomLeft = encoding.bomLength;
  }

  get bytesSeen(): number {
    return this.size;
  }

  /** `chunk` may be reused by the caller afterwards: the hash and the decoder copy what they keep. */
  write(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    let body = chunk;
    if (this.bomLeft > 0) {
      const skip = Math.min(this.bomLeft, body.length);
      body = body.subarray(skip);
      this.bomLeft -= skip;
    }
    this.feed(this.decoder.write(body));
  }

  result(): WindowResult {
    this.feed(this.decoder.end());
    const lines = this.lines;
    lines.end();
    return {
      lines: lines.lines,
      totalLines: lines.lineNo,
      cutLines: lines.cutLines,
      stoppedAtOutputCap: lines.stopped,
      hash: this.hash.digest(),
      size: this.size,
      whitespaceOnly: !this.nonWhitespace,
    };
  }

  private feed(text: string): void {
    if (!this.nonWhitespace && /\S/.test(text)) this.nonWhitespace = true;
    this.lines.push(text);
  }
}

/** Streams the whole file from the start through `fh` (which stays open; the caller closes it). */
export async function scanTextFile(fh: FileHandle, encoding: EncodingInfo, opts: WindowOptions): Promise<WindowResult> {
  const scan = new TextScan(encoding, opts);
  // Plain positioned reads into one buffer sized to the file: a read stream would allocate a fresh
  // 256 KB buffer per chunk, even for a file of a few lines.
  const buf = Buffer.allocUnsafe(bufferSize(opts.sizeHint));
  for (;;) {
    if (opts.signal?.aborted) throw new ToolError('aborted', 'Read was cancelled.');
    const { bytesRead } = await fh.read(buf, 0, buf.length, scan.bytesSeen);
    if (bytesRead === 0) break;
    scan.write(buf.subarray(0, bytesRead));
  }
  return scan.result();
}

/**
 * The same pass with synchronous reads, for small files: a few blocking reads of the page cache
 * cost less than the thread-pool trips of the streaming version. The caller owns `fd`.
 */
export function scanTextFd(fd: number, encoding: EncodingInfo, opts: WindowOptions): WindowResult {
  if (opts.signal?.aborted) throw new ToolError('aborted', 'Read was cancelled.');
  const scan = new TextScan(encoding, opts);
  const buf = Buffer.allocUnsafe(bufferSize(opts.sizeHint));
  for (;;) {
    const bytesRead = readSync(fd, buf, 0, buf.length, scan.bytesSeen);
    if (bytesRead === 0) break;
    scan.write(buf.subarray(0, bytesRead));
  }
  return scan.result();
}

function bufferSize(sizeHint: number | undefined): number {
  return Math.min(CHUNK_BYTES, Math.max(1024, (sizeHint ?? CHUNK_BYTES) + 1));
}
