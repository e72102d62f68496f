/** Text files: one streaming pass, then the variant that says what the model should see. */
import { closeSync, type Stats } from 'node:fs';
import type { EncodingInfo } from '../fs/encoding.js';
import { openRegularFile, openSmallRegularFileSync, SMALL_FILE_BYTES } from '../fs/file-kind.js';
import { sameVersion, type ReadRange, type ReadState } from '../../base/read-state.js';
import { DEFAULT_LINE_LIMIT, MAX_LINE_CHARS, MAX_OUTPUT_CHARS } from './limits.js';
import { scanTextFd, scanTextFile, type WindowOptions, type WindowResult } from './line-window.js';
import type { ReadOutput } from './types.js';

export interface TextReadRequest {
  absPath: string;
  displayPath: string;
  encoding: EncodingInfo;
  offset?: number;
  limit?: number;
  readState: ReadState;
  signal: AbortSignal;
}

export function requestedRange(offset: number | undefined, limit: number | undefined): ReadRange {
  const start = Math.max(1, offset ?? 1);
  return limit === undefined ? { offset: start } : { offset: start, limit };
}

async function scanWindow(absPath: string, encoding: EncodingInfo, opts: WindowOptions): Promise<{ scan: WindowResult; stats: Stats }> {
  const small = openSmallRegularFileSync(absPath, SMALL_FILE_BYTES);
  if (small) {
    try {
      return { scan: scanTextFd(small.fd, encoding, { ...opts, sizeHint: small.stats.size }), stats: small.stats };
    } finally {
      closeSync(small.fd);
    }
  }
  const { fh, stats } = await openRegularFile(absPath);
  try {
    return { scan: await scanTextFile(fh, encoding, { ...opts, sizeHint: stats.size }), stats };
  } finally {
    await fh.close();
  }
}

export async function readTextFile(req: TextReadRequest): Promise<ReadOutput> {
  const range = requestedRange(req.offset, req.limit);
  const { scan, stats } = await scanWindow(req.absPath, req.encoding, {
    startLine: range.offset,
    limit: range.limit ?? DEFAULT_LINE_LIMIT,
    maxLineChars: MAX_LINE_CHARS,
    maxOutputChars: MAX_OUTPUT_CHARS,
    signal: req.signal,
  });
  const version = { mtimeMs: stats.mtimeMs, size: scan.size, hash: scan.hash };
  const base = { filePath: req.absPath, displayPath: req.displayPath, version, range };
  if (scan.totalLines === 0 || scan.whitespaceOnly) {
    return { ...base, kind: 'empty', totalLines: scan.totalLines, whitespaceOnly: scan.totalLines > 0 };
  }
  if (range.offset > scan.totalLines) return { ...base, kind: 'past-end', totalLines: scan.totalLines };
  const prev = req.readState.get(req.absPath);
  if (prev && !prev.fromWrite && sameVersion(prev.version, version) && prev.ranges.some((r) => r.offset === range.offset && r.limit === range.limit)) {
    return { ...base, kind: 'unchanged', totalLines: scan.totalLines };
  }
  return {
    ...base,
    kind: 'text',
    startLine: range.offset,
    lines: scan.lines,
    totalLines: scan.totalLines,
    cutLines: scan.cutLines,
    stoppedAtOutputCap: scan.stoppedAtOutputCap,
    encoding: req.encoding.bomLength > 0 ? `${req.encoding.encoding} with BOM` : req.encoding.encoding,
  };
}
