/**
 * One streaming pass over a text file: hashes every byte (the version), counts the lines, and keeps
 * only the lines inside the requested window, each cut at the line limit. Memory stays bounded by
 * the window, whatever the file size or the length of its lines.
 */
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { ToolError } from '../../core/errors.js';
import { createStreamDecoder, type EncodingInfo } from '../fs/encoding.js';
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
}

export interface WindowResult {
  lines: string[];
  totalLines: number;
  cutLines: number;
  stoppedAtOutputCap: boolean;
  /** sha256 of the raw bytes, hex. */
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

/** Streams the whole file from the start through `fh` (which stays open; the caller closes it). */
export async function scanTextFile(fh: FileHandle, encoding: EncodingInfo, opts: WindowOptions): Promise<WindowResult> {
  const hash = createHash('sha256');
  const decoder = createStreamDecoder(encoding.encoding);
  const lines = new LineCollector(opts);
  let size = 0;
  let bomLeft = encoding.bomLength;
  let nonWhitespace = false;
  const feed = (text: string) => {
    if (!nonWhitespace && /\S/.test(text)) nonWhitespace = true;
    lines.push(text);
  };
  const stream = fh.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES, autoClose: false });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (opts.signal?.aborted) {
      stream.destroy();
      throw new ToolError('aborted', 'Read was cancelled.');
    }
    hash.update(chunk);
    size += chunk.length;
    let body = chunk;
    if (bomLeft > 0) {
      const skip = Math.min(bomLeft, body.length);
      body = body.subarray(skip);
      bomLeft -= skip;
    }
    feed(decoder.write(body));
  }
  feed(decoder.end());
  lines.end();
  return {
    lines: lines.lines,
    totalLines: lines.lineNo,
    cutLines: lines.cutLines,
    stoppedAtOutputCap: lines.stopped,
    hash: hash.digest('hex'),
    size,
    whitespaceOnly: !nonWhitespace,
  };
}
