/**
 * Read's preflight, run by validateInput and again by call (the file may change in between): where
 * the path points, what kind of file it is, and whether Read may open it at all. It never opens
 * anything that is not a regular file, so /dev/zero, FIFOs and sockets cannot block it.
 */
import type { Stats } from 'node:fs';
import { detectEncoding, type EncodingInfo } from '../fs/encoding.js';
import {
  blockedPathReason,
  formatBytes,
  hasBinaryExtension,
  imageTypeFromExtension,
  isNotebookPath,
  isNotFound,
  isPdfPath,
  looksBinary,
  nonRegularReason,
  readHead,
  sniffImageType,
  statOrUndefined,
  type ImageMediaType,
} from '../fs/file-kind.js';
import { similarSiblings } from '../fs/similar-names.js';
import { MAX_IMAGE_BYTES, MAX_NOTEBOOK_BYTES, MAX_PDF_BYTES, MAX_TEXT_BYTES_WITHOUT_RANGE } from './limits.js';

export type Inspection =
  | { ok: true; kind: 'text'; absPath: string; stats: Stats; encoding: EncodingInfo }
  | { ok: true; kind: 'image'; absPath: string; stats: Stats; mediaType: ImageMediaType }
  | { ok: true; kind: 'pdf' | 'notebook'; absPath: string; stats: Stats }
  | { ok: false; message: string };

export interface InspectRequest {
  absPath: string;
  cwd: string;
  hasRange: boolean;
  hasPages: boolean;
  /** Paths the deny rules hide: never suggested as a similar name. */
  hidden?: (absPath: string) => boolean;
}

const HEAD_BYTES = 8192;

export async function inspectForRead(req: InspectRequest): Promise<Inspection> {
  const { absPath } = req;
  const blocked = blockedPathReason(absPath);
  if (blocked) return refuse(`Cannot read ${absPath}: ${blocked}. Read only reads regular files.`);
  let stats: Stats | undefined;
  try {
    stats = await statOrUndefined(absPath);
  } catch (err) {
    return refuse(`Cannot read ${absPath}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
  if (!stats) return refuse(await missingFileMessage(absPath, req.cwd, req.hidden));
  if (stats.isDirectory()) {
    return refuse(`${absPath} is a directory, not a file. Use Glob to find files in it, or run \`ls\` with Bash.`);
  }
  const kind = nonRegularReason(stats);
  if (kind) return refuse(`Cannot read ${absPath}: ${kind}. Read only reads regular files.`);
  if (req.hasPages && !isPdfPath(absPath)) {
    return refuse('The pages parameter is only for PDF files. Use offset and limit to read part of a text file.');
  }
  if (isPdfPath(absPath)) return sizeChecked({ ok: true, kind: 'pdf', absPath, stats }, MAX_PDF_BYTES, 'PDF');
  if (isNotebookPath(absPath)) return sizeChecked({ ok: true, kind: 'notebook', absPath, stats }, MAX_NOTEBOOK_BYTES, 'notebook');
  return inspectContent(req, stats);
}

async function inspectContent(req: InspectRequest, stats: Stats): Promise<Inspection> {
  const { absPath } = req;
  let head: Buffer;
  try {
    head = await readHead(absPath, HEAD_BYTES);
  } catch (err) {
    if (isNotFound(err)) return refuse(await missingFileMessage(absPath, req.cwd, req.hidden));
    return refuse(`Cannot read ${absPath}: ${(err as Error).message}`);
  }
  const mediaType = sniffImageType(head) ?? (head.length === 0 ? undefined : imageTypeFromExtension(absPath));
  if (mediaType) {
    if (stats.size > MAX_IMAGE_BYTES) {
      return refuse(
        `The image ${absPath} is ${formatBytes(stats.size)}, over the ${formatBytes(MAX_IMAGE_BYTES)} limit for images. ` +
          'Make a smaller copy (for example with ImageMagick through Bash) and read that instead.',
      );
    }
    return { ok: true, kind: 'image', absPath, stats, mediaType };
  }
  const encoding = detectEncoding(head);
  const utf16 = encoding.encoding === 'utf16le' || encoding.encoding === 'utf16be';
  if (hasBinaryExtension(absPath) || (!utf16 && looksBinary(head.subarray(encoding.bomLength)))) {
    return refuse(
      `${absPath} is a binary file (${formatBytes(stats.size)}); Read shows text, images, PDFs and notebooks only. ` +
        'Inspect it with Bash tools such as `file`, `xxd | head` or `strings` if you need to.',
    );
  }
  if (!req.hasRange && stats.size > MAX_TEXT_BYTES_WITHOUT_RANGE) {
    return refuse(
      `${absPath} is ${formatBytes(stats.size)}, too large to read without a range (limit ${formatBytes(MAX_TEXT_BYTES_WITHOUT_RANGE)}). ` +
        'Pass offset and limit to read part of it, or search it with Grep.',
    );
  }
  return { ok: true, kind: 'text', absPath, stats, encoding };
}

function sizeChecked(ok: Inspection & { ok: true }, max: number, what: string): Inspection {
  if (ok.stats.size <= max) return ok;
  return refuse(`The ${what} ${ok.absPath} is ${formatBytes(ok.stats.size)}, over the ${formatBytes(max)} limit for ${what} files.`);
}

async function missingFileMessage(absPath: string, cwd: string, hidden?: (absPath: string) => boolean): Promise<string> {
  const similar = await similarSiblings(absPath, 3, hidden);
  let msg = `File does not exist: ${absPath} (current working directory: ${cwd}).`;
  if (similar.length > 0) msg += ` Did you mean ${similar.join(' or ')}?`;
  return msg;
}

function refuse(message: string): Inspection {
  return { ok: false, message };
}
