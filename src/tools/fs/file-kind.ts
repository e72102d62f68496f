/**
 * What kind of file a path names, decided before anything is opened for reading: device files,
 * FIFOs and sockets can block forever or never end, so they are refused from `stat` alone.
 */
import type { Stats } from 'node:fs';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { open } from '../../base/fs/lazy-fs.js';

/** Paths refused whatever `stat` says: devices, and the process's own file descriptors. */
export function blockedPathReason(absPath: string): string | undefined {
  if (absPath === '/dev' || absPath.startsWith('/dev/')) return 'it is a device path';
  if (/^\/proc\/(self|thread-self|\d+)\/fd(\/|$)/.test(absPath)) return 'it is a process file descriptor';
  if (/^\/proc\/(kmsg|kcore)$/.test(absPath)) return 'it is a kernel stream';
  return undefined;
}

/** Why a stat result is not a regular file we can read, or undefined when it is. */
export function nonRegularReason(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'it is a directory';
  if (st.isFIFO()) return 'it is a FIFO (named pipe); reading it could block forever';
  if (st.isSocket()) return 'it is a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'it is a device file';
  return 'it is not a regular file';
}

/** `stat`, with a missing file as undefined instead of an exception. */
export async function statOrUndefined(absPath: string): Promise<Stats | undefined> {
  // Synchronous: one stat answers in microseconds, and a trip through the thread pool costs more.
  try {
    return statSync(absPath);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function isNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Opens a file for reading without ever blocking on a FIFO (O_NONBLOCK), then checks with fstat
 * that what was opened is still a regular file (the path may have been swapped since `stat`).
 */
export async function openRegularFile(absPath: string) {
  const fh = await open(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    const reason = nonRegularReason(st);
    if (reason) throw new Error(`Cannot read ${absPath}: ${reason}.`);
    return { fh, stats: st };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** Files up to this size are read with blocking reads, in one go: a thread-pool trip costs more. */
export const SMALL_FILE_BYTES = 256 * 1024;

/**
 * Opens a regular file synchronously when it is at most `maxBytes` long (O_NONBLOCK, so a FIFO that
 * took the path's place cannot block). Anything bigger, or not regular, is closed again and
 * `undefined` returned: the caller takes the asynchronous path, which also reports the reason.
 */
export function openSmallRegularFileSync(absPath: string, maxBytes: number): { fd: number; stats: Stats } | undefined {
  let opened: { fd: number; stats: Stats };
  try {
    opened = openRegularFileSync(absPath);
  } catch {
    return undefined; // the asynchronous path reports it
  }
  if (opened.stats.size <= maxBytes) return opened;
  closeSync(opened.fd);
  return undefined;
}

/** `openRegularFile` with blocking calls; the caller closes `fd`. */
function openRegularFileSync(absPath: string): { fd: number; stats: Stats } {
  const fd = openSync(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    const reason = nonRegularReason(stats);
    if (reason) throw new Error(`Cannot read ${absPath}: ${reason}.`);
    return { fd, stats };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * The first `length` bytes of a regular file. Synchronous, like stat: a bounded read of a few KB
 * (O_NONBLOCK, and refused unless the opened file is regular) costs less than four thread-pool trips.
 */
export async function readHead(absPath: string, length: number): Promise<Buffer> {
  const { fd } = openRegularFileSync(absPath);
  try {
    const buf = Buffer.alloc(length);
    const bytesRead = readSync(fd, buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    closeSync(fd);
  }
}

/** Is a `.git` directory one of the path's segments? */
export function isInsideGitDir(absPath: string): boolean {
  return absPath.split(path.sep).includes('.git');
}

/**
 * Binary by content: a NUL byte, or many control characters, in the head sample. Call it on a
 * sample that is not UTF-16 (UTF-16 text is full of zero bytes).
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27 && b !== 8) control++;
  }
  return control / sample.length > 0.1;
}

/** Extensions that are binary whatever their first bytes say. */
const BINARY_EXTENSIONS = new Set(
  (
    'exe dll so dylib o a lib obj class jar war pyc pyo wasm bin db sqlite sqlite3 ' +
    'zip gz tgz bz2 xz zst 7z rar tar iso dmg deb rpm apk ' +
    'ico bmp tif tiff psd heic avif mp3 mp4 m4a wav flac ogg mov avi mkv webm ' +
    'ttf otf woff woff2 eot doc docx xls xlsx ppt pptx odt'
  ).split(' '),
);

export function hasBinaryExtension(absPath: string): boolean {
  return BINARY_EXTENSIONS.has(path.extname(absPath).slice(1).toLowerCase());
}

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

const IMAGE_EXTENSIONS: Record<string, ImageMediaType> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export function imageTypeFromExtension(absPath: string): ImageMediaType | undefined {
  return IMAGE_EXTENSIONS[path.extname(absPath).slice(1).toLowerCase()];
}

/** The image type from the magic bytes; trusted over the extension. */
export function sniffImageType(head: Uint8Array): ImageMediaType | undefined {
  const h = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (h.length >= 8 && h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff) return 'image/jpeg';
  if (h.length >= 6 && (h.toString('latin1', 0, 6) === 'GIF87a' || h.toString('latin1', 0, 6) === 'GIF89a')) return 'image/gif';
  if (h.length >= 12 && h.toString('latin1', 0, 4) === 'RIFF' && h.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

export function isPdfPath(absPath: string): boolean {
  return path.extname(absPath).toLowerCase() === '.pdf';
}

export function isNotebookPath(absPath: string): boolean {
  return path.extname(absPath).toLowerCase() === '.ipynb';
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
