/**
 * Output to stdout as blocking writes on its descriptor, so print mode, --version and --help build
 * no stdout stream (a tty, pipe or file stream and its machinery: about 2 ms at every start).
 * When the descriptor is non-blocking and its reader is slow (EAGAIN), the stream takes over, and
 * everything after goes through it too, so the order holds.
 */
import { writeSync } from 'node:fs';

export interface StdoutOptions {
  /** The descriptor to write to (1). */
  fd?: number;
  /** The stream that takes over after EAGAIN (process.stdout). */
  stream?: () => NodeJS.WritableStream;
  /** Called once when the reader has gone away (EPIPE). */
  onGone?: () => void;
}

export class StdoutWriter {
  /** The reader went away (EPIPE): nothing more is written. */
  gone = false;
  private stream: NodeJS.WritableStream | undefined;

  constructor(private readonly opts: StdoutOptions = {}) {}

  write(text: string): void {
    if (this.gone || text === '') return;
    if (this.stream) {
      this.stream.write(text);
      return;
    }
    const bytes = Buffer.from(text);
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.opts.fd ?? 1, bytes, done);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') this.takeOver().write(bytes.subarray(done));
      else if (code === 'EPIPE') this.readerGone();
      // Any other failure (a closed descriptor) loses the output only, as the stream's would.
    }
  }

  /** Resolves once everything written has reached the descriptor, or never can. */
  flushed(): Promise<void> {
    const s = this.stream as (NodeJS.WritableStream & { writableLength?: number; destroyed?: boolean; errored?: unknown }) | undefined;
    if (!s || !s.writableLength || s.destroyed || s.errored) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => resolve();
      s.once('drain', done);
      s.once('error', done);
      s.once('close', done);
    });
  }

  private takeOver(): NodeJS.WritableStream {
    const s = this.opts.stream?.() ?? process.stdout;
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') this.readerGone();
    });
    this.stream = s;
    return s;
  }

  private readerGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.opts.onGone?.();
  }
}
