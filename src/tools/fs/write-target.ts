/**
 * The checks every writing tool (Edit, Write, NotebookEdit) makes against the file on disk right
 * now: where it is, what it is, whether the model has read it, and whether it changed since.
 */
import { closeSync, readFileSync, type Stats } from 'node:fs';
import { readFile } from '../../base/fs/lazy-fs.js';
import type { FileVersion, ReadState } from '../../base/read-state.js';
import { sameVersion } from '../../base/read-state.js';
import { decodeText, detectEncoding, detectLineEnding, isUtf8, type EncodingInfo, type LineEnding } from './encoding.js';
import {
  blockedPathReason,
  formatBytes,
  isInsideGitDir,
  looksBinary,
  nonRegularReason,
  openRegularFile,
  openSmallRegularFileSync,
  SMALL_FILE_BYTES,
  statOrUndefined,
} from './file-kind.js';
import { versionOf } from '../../base/fs/version.js';

/** Files larger than this are not edited in memory. */
export const MAX_WRITE_BYTES = 16 * 1024 * 1024;

export const NOT_READ_MESSAGE = 'File has not been read yet. Read it first before writing to it.';
export const MODIFIED_MESSAGE =
  'File has been modified since it was read, either by the user or by another process (a formatter, a linter). Read it again before writing to it.';

/** A text file loaded whole, with everything needed to write it back the way it was. */
export interface TextFile {
  path: string;
  /** Decoded text without the BOM, line endings as on disk. */
  text: string;
  encoding: EncodingInfo;
  lineEnding: LineEnding;
  version: FileVersion;
  /** The content looks binary (NUL bytes, many control characters). */
  binary: boolean;
}

export type WriteTarget = { ok: true; exists: false } | { ok: true; exists: true; file: TextFile } | { ok: false; message: string };

export interface WriteTargetOptions {
  /** The session's read state (ctx.readState). */
  readState: ReadState;
  /** Require a prior read of an existing file (default true). */
  requireRead?: boolean;
}

/** Checks a path a tool wants to write and, when it exists, loads it. Never writes. */
export async function loadWriteTarget(absPath: string, opts: WriteTargetOptions): Promise<WriteTarget> {
  const where = refusedLocation(absPath);
  if (where) return { ok: false, message: where };
  const st = await statOrUndefined(absPath);
  if (!st) return { ok: true, exists: false };
  const kind = nonRegularReason(st);
  if (kind) return { ok: false, message: `Cannot write ${absPath}: ${kind}.` };
  if (st.size > MAX_WRITE_BYTES) {
    return { ok: false, message: `Cannot edit ${absPath}: it is ${formatBytes(st.size)}, over the ${formatBytes(MAX_WRITE_BYTES)} limit for edits.` };
  }
  const entry = opts.readState.get(absPath);
  if (opts.requireRead !== false && !entry) return { ok: false, message: NOT_READ_MESSAGE };
  const file = await loadTextFile(absPath);
  if (entry && !sameVersion(entry.version, file.version)) return { ok: false, message: MODIFIED_MESSAGE };
  if (file.binary) {
    return { ok: false, message: `Cannot edit ${absPath}: it looks like a binary file.` };
  }
  return { ok: true, exists: true, file };
}

function refusedLocation(absPath: string): string | undefined {
  if (isInsideGitDir(absPath)) {
    return `Refusing to write ${absPath}: files inside .git/ belong to git. Use git commands instead.`;
  }
  const blocked = blockedPathReason(absPath);
  if (blocked) return `Cannot write ${absPath}: ${blocked}.`;
  return undefined;
}

/** Reads a whole file (never blocking on a FIFO) and decodes it. */
export async function loadTextFile(absPath: string): Promise<TextFile> {
  const { raw, stats } = readSmallFile(absPath) ?? (await readWholeFile(absPath));
  let encoding = detectEncoding(raw.subarray(0, 64 * 1024));
  if (encoding.encoding === 'utf8' && encoding.bomLength === 0 && !isUtf8(raw)) encoding = { encoding: 'latin1', bomLength: 0 };
  const utf16 = encoding.encoding === 'utf16le' || encoding.encoding === 'utf16be';
  const binary = !utf16 && looksBinary(raw.subarray(encoding.bomLength, 8192));
  const text = decodeText(raw, encoding);
  return { path: absPath, text, encoding, lineEnding: detectLineEnding(text), version: versionOf(raw, stats), binary };
}

function readSmallFile(absPath: string): { raw: Buffer; stats: Stats } | undefined {
  const small = openSmallRegularFileSync(absPath, SMALL_FILE_BYTES);
  if (!small) return undefined;
  try {
    return { raw: readFileSync(small.fd), stats: small.stats };
  } finally {
    closeSync(small.fd);
  }
}

async function readWholeFile(absPath: string): Promise<{ raw: Buffer; stats: Stats }> {
  const { fh, stats } = await openRegularFile(absPath);
  try {
    return { raw: await readFile(fh), stats };
  } finally {
    await fh.close();
  }
}
