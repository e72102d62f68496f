/** Reading prompts from stdin: all of it (capped at 10 MB), or JSON lines for --input-format stream-json. */
import type { ContentBlock } from '../base/events.js';

const MAX_STDIN = 10 * 1024 * 1024;

/** Whether stdin is a terminal; asked of the descriptor, so no stdin stream is built to answer. */
export function stdinIsTerminal(): boolean {
  return process.getBuiltinModule('node:tty').isatty(0);
}

/**
 * Reads stdin to the end. With `waitForFirstByteMs`, gives up when nothing arrives in that time
 * (a prompt was given as an argument and stdin is an idle pipe).
 */
export function readStdin(opts: { waitForFirstByteMs?: number } = {}): Promise<string> {
  const direct = readStdinDirectly();
  if (direct.ended) return Promise.resolve(text(direct.chunks));
  return new Promise((resolve) => {
    const chunks = direct.chunks;
    let size = chunks.reduce((n, c) => n + c.length, 0);
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (timer) clearTimeout(timer);
      process.stdin.off('data', onData);
      process.stdin.off('end', finish);
      process.stdin.off('error', finish);
      process.stdin.pause();
      resolve(text(chunks));
    };
    const onData = (c: Buffer) => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (size < MAX_STDIN) {
        chunks.push(c.subarray(0, MAX_STDIN - size));
        size += c.length;
      }
    };
    if (opts.waitForFirstByteMs !== undefined && size === 0) timer = setTimeout(finish, opts.waitForFirstByteMs);
    process.stdin.on('data', onData);
    process.stdin.once('end', finish);
    process.stdin.once('error', finish);
  });
}

const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');

interface DirectRead {
  chunks: Buffer[];
  /** All of stdin was read (or there is none); otherwise the stream reads on after `chunks`. */
  ended: boolean;
}

/**
 * Reads what stdin holds without the stream machinery. A file or a device (`< file`, `< /dev/null`)
 * cannot be idle, so it is read in blocking calls. A pipe whose writer has finished
 * (`echo … | wicket -p`) is read through a non-blocking descriptor of its own; when the writer is
 * still at work, the stream reads on. Sockets, and systems without /proc, go to the stream.
 */
function readStdinDirectly(): DirectRead {
  const fs = process.getBuiltinModule('node:fs');
  let stat: import('node:fs').Stats;
  try {
    stat = fs.fstatSync(0);
  } catch {
    return { chunks: [], ended: true }; // no stdin at all
  }
  if (stat.isFile() || stat.isCharacterDevice()) return readToEnd(0);
  if (!stat.isFIFO()) return { chunks: [], ended: false };
  let fd: number;
  try {
    fd = fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return { chunks: [], ended: false };
  }
  try {
    return readToEnd(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Blocking or non-blocking reads up to the end, EAGAIN (the writer is not done) or the cap. */
function readToEnd(fd: number): DirectRead {
  const fs = process.getBuiltinModule('node:fs');
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    while (size < MAX_STDIN) {
      const buf = Buffer.allocUnsafe(Math.min(64 * 1024, MAX_STDIN - size));
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      size += n;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && fd !== 0) return { chunks, ended: false };
    // EAGAIN from a non-blocking device, or a read error: what arrived is the input.
  }
  return { chunks, ended: true };
}

/** User messages from JSON lines: {"type":"user","message":{"role":"user","content":…}}. */
export async function* stdinLines(): AsyncGenerator<string | ContentBlock[]> {
  // readline is loaded only for JSON-lines input.
  const { createInterface } = process.getBuiltinModule('node:readline');
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      process.stderr.write(`wicket: warning: ignoring a stdin line that is not JSON: ${line.slice(0, 80)}\n`);
      continue;
    }
    const content = msg?.message?.content ?? msg?.content;
    if (msg?.type !== 'user' || content === undefined) {
      process.stderr.write(`wicket: warning: ignoring a stdin message that is not a user message\n`);
      continue;
    }
    yield typeof content === 'string' ? content : (content as ContentBlock[]);
  }
}
