/**
 * Command output, from the file it was written to, in bounded memory: at most a few hundred KB are
 * ever read, whatever the command printed. The model gets colour codes stripped and carriage-return
 * progress collapsed; past the limit (BASH_MAX_OUTPUT_LENGTH, 30,000 characters by default), the head and the tail with the file's path.
 * The person gets the tail with colours kept.
 */
import { open, rm, stat, truncate } from '../../base/fs/lazy-fs.js';
import stripAnsi from 'strip-ansi';
import { MODEL_OUTPUT_LIMIT } from './limits.js';

/** Files up to this size are read whole; larger ones only by head and tail. */
const WHOLE_READ_BYTES = 256 * 1024;
const EDGE_BYTES = 64 * 1024;
const DISPLAY_BYTES = 4 * 1024;

export interface CollectedOutput {
  /** For the model: clean, at most about the limit's characters. */
  text: string;
  /** For the person: the last lines, colours kept. */
  display: string;
  totalBytes: number;
  /** Set when the output was too long to inline; the file keeps all of it. */
  outputFile?: string;
  /** The working directory the shell reported at exit, when it did. */
  cwd?: string;
}

/** Collapse `\r` progress updates to what a terminal would finally show on each line. */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => (line.includes('\r') ? line.split('\r').reduce((shown, seg) => seg + shown.slice(seg.length), '') : line))
    .join('\n');
}

export function cleanForModel(text: string): string {
  return collapseCarriageReturns(stripAnsi(text));
}

/** Read the finished output file, cut the working-directory marker off, and decide what to keep. */
export async function collectOutput(file: string, marker: string, opts: { keepFile?: boolean; limit?: number } = {}): Promise<CollectedOutput> {
  const limit = opts.limit ?? MODEL_OUTPUT_LIMIT;
  const edge = Math.max(EDGE_BYTES, limit);
  const cwd = await takeMarker(file, marker);
  const totalBytes = (await stat(file)).size;
  const displayRaw = await readRange(file, Math.max(0, totalBytes - DISPLAY_BYTES), DISPLAY_BYTES);
  const display = collapseCarriageReturns(totalBytes > DISPLAY_BYTES ? dropFirstLine(displayRaw) : displayRaw).trimEnd();
  if (totalBytes <= WHOLE_READ_BYTES) {
    const text = cleanForModel(await readRange(file, 0, totalBytes)).trimEnd();
    if (text.length <= limit) {
      if (!opts.keepFile) await rm(file, { force: true });
      return { text, display, totalBytes, ...(cwd ? { cwd } : {}) };
    }
    return { text: headAndTail(text, text, totalBytes, file, limit), display, totalBytes, outputFile: file, ...(cwd ? { cwd } : {}) };
  }
  const head = cleanForModel(await readRange(file, 0, edge));
  const tail = cleanForModel(dropFirstLine(await readRange(file, totalBytes - edge, edge))).trimEnd();
  return { text: headAndTail(head, tail, totalBytes, file, limit), display, totalBytes, outputFile: file, ...(cwd ? { cwd } : {}) };
}

function headAndTail(head: string, tail: string, totalBytes: number, file: string, limit: number): string {
  const half = Math.floor(limit / 2);
  const h = cutAtLine(head.slice(0, half), 'end');
  const t = cutAtLine(tail.slice(-half), 'start');
  return `${h}\n\n[… output truncated: ${totalBytes} bytes in all. The full output is saved in ${file}; Read it with offset/limit or Grep it …]\n\n${t}`;
}

function cutAtLine(text: string, side: 'start' | 'end'): string {
  if (side === 'end') {
    const i = text.lastIndexOf('\n');
    return i > text.length / 2 ? text.slice(0, i) : text;
  }
  const i = text.indexOf('\n');
  return i >= 0 && i < text.length / 2 ? text.slice(i + 1) : text;
}

function dropFirstLine(text: string): string {
  const i = text.indexOf('\n');
  return i >= 0 ? text.slice(i + 1) : text;
}

export async function readRange(file: string, start: number, length: number): Promise<string> {
  if (length <= 0) return '';
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, start);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** Find the last marker near the end of the file, return the path after it and truncate it away. */
export async function takeMarker(file: string, marker: string): Promise<string | undefined> {
  const size = (await stat(file)).size;
  const window = Math.min(size, 16 * 1024);
  const start = size - window;
  const buf = await readBytes(file, start, window);
  const at = buf.lastIndexOf(Buffer.from(marker));
  if (at < 0) return undefined;
  const rest = buf.subarray(at + marker.length).toString('utf8');
  const cwd = rest.split('\n', 1)[0]!;
  const cut = at > 0 && buf[at - 1] === 0x0a ? at - 1 : at;
  await truncate(file, start + cut);
  return cwd.startsWith('/') ? cwd : undefined;
}

async function readBytes(file: string, start: number, length: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, start);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The last lines of a running command's output, for progress events. */
export async function outputTail(file: string, size: number, lines = 5): Promise<string> {
  const raw = await readRange(file, Math.max(0, size - 2048), Math.min(size, 2048));
  return cleanForModel(raw).trimEnd().split('\n').slice(-lines).join('\n');
}
