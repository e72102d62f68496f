/**
 * Text encodings the file tools read and write back unchanged: UTF-8 (with or without BOM), UTF-16
 * LE/BE (with BOM, or recognised by their zero bytes), and Latin-1 for bytes that are not valid
 * UTF-8 (Latin-1 maps every byte to one character, so a round trip never changes a byte).
 */
import { isUtf8 as nativeIsUtf8 } from 'node:buffer';

export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'latin1';

export interface EncodingInfo {
  encoding: TextEncoding;
  /** Number of BOM bytes at the start of the file (0, 2 or 3). */
  bomLength: number;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);
const UTF16BE_BOM = Buffer.from([0xfe, 0xff]);

/** Detects the encoding from the first bytes of a file (a head sample is enough). */
export function detectEncoding(head: Uint8Array): EncodingInfo {
  if (startsWith(head, UTF8_BOM)) return { encoding: 'utf8', bomLength: 3 };
  if (startsWith(head, UTF16LE_BOM)) return { encoding: 'utf16le', bomLength: 2 };
  if (startsWith(head, UTF16BE_BOM)) return { encoding: 'utf16be', bomLength: 2 };
  const utf16 = guessUtf16WithoutBom(head);
  if (utf16) return { encoding: utf16, bomLength: 0 };
  return { encoding: isUtf8(head, true) ? 'utf8' : 'latin1', bomLength: 0 };
}

/** Text files in UTF-16 without a BOM: mostly ASCII, so every other byte is zero. */
function guessUtf16WithoutBom(head: Uint8Array): 'utf16le' | 'utf16be' | undefined {
  const pairs = Math.floor(Math.min(head.length, 4096) / 2);
  if (pairs < 4) return undefined;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) zeroEven++;
    if (head[2 * i + 1] === 0) zeroOdd++;
  }
  if (zeroOdd > pairs * 0.6 && zeroEven < pairs * 0.02) return 'utf16le';
  if (zeroEven > pairs * 0.6 && zeroOdd < pairs * 0.02) return 'utf16be';
  return undefined;
}

/** Valid UTF-8? With `allowTruncatedEnd`, a multi-byte sequence cut by the end of a sample is fine. */
export function isUtf8(bytes: Uint8Array, allowTruncatedEnd = false): boolean {
  if (!allowTruncatedEnd) return nativeIsUtf8(bytes);
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = sequenceLength(b);
    if (len === 0) return false;
    if (i + len > n) return allowTruncatedEnd && allContinuation(bytes, i + 1, n);
    if (!allContinuation(bytes, i + 1, i + len)) return false;
    i += len;
  }
  return true;
}

function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function allContinuation(bytes: Uint8Array, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if ((bytes[j]! & 0xc0) !== 0x80) return false;
  return true;
}

function startsWith(buf: Uint8Array, prefix: Uint8Array): boolean {
  if (buf.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[i] !== prefix[i]) return false;
  return true;
}

/** Decodes a whole file. The BOM is not part of the text. */
export function decodeText(raw: Buffer, info: EncodingInfo): string {
  const body = raw.subarray(info.bomLength);
  switch (info.encoding) {
    case 'utf8':
      return body.toString('utf8');
    case 'latin1':
      return body.toString('latin1');
    case 'utf16le':
      return body.toString('utf16le');
    case 'utf16be':
      return swapBytes(body).toString('utf16le');
  }
}

/** Encodes text back in the file's encoding, with its BOM when it had one. */
export function encodeText(text: string, info: EncodingInfo): Buffer {
  let body: Buffer;
  switch (info.encoding) {
    case 'utf8':
      body = Buffer.from(text, 'utf8');
      break;
    case 'latin1':
      body = Buffer.from(text, 'latin1');
      break;
    case 'utf16le':
      body = Buffer.from(text, 'utf16le');
      break;
    case 'utf16be':
      body = swapBytes(Buffer.from(text, 'utf16le'));
      break;
  }
  if (info.bomLength === 0) return body;
  return Buffer.concat([bomFor(info.encoding), body]);
}

/** Can `text` be written in `encoding` without losing characters? (Only Latin-1 can fail.) */
export function canEncode(text: string, encoding: TextEncoding): boolean {
  if (encoding !== 'latin1') return true;
  // eslint-disable-next-line no-control-regex
  return !/[^\u0000-\u00ff]/.test(text);
}

function bomFor(encoding: TextEncoding): Buffer {
  if (encoding === 'utf16le') return UTF16LE_BOM;
  if (encoding === 'utf16be') return UTF16BE_BOM;
  return UTF8_BOM;
}

function swapBytes(buf: Buffer): Buffer {
  const even = buf.length - (buf.length % 2);
  const out = Buffer.from(buf.subarray(0, even));
  out.swap16();
  return out;
}

/** Incremental decoder for streaming reads: multi-byte sequences split across chunks stay whole. */
export interface StreamDecoder {
  write(chunk: Buffer): string;
  end(): string;
}

export function createStreamDecoder(encoding: TextEncoding): StreamDecoder {
  if (encoding === 'latin1') return { write: (c) => c.toString('latin1'), end: () => '' };
  const label = encoding === 'utf8' ? 'utf-8' : encoding === 'utf16le' ? 'utf-16le' : 'utf-16be';
  const decoder = new TextDecoder(label, { ignoreBOM: true });
  return {
    write: (chunk) => decoder.decode(chunk, { stream: true }),
    end: () => decoder.decode(),
  };
}

/** Line-ending style of a text: all CRLF, all LF (or none), or a mix of both. */
export type LineEnding = 'lf' | 'crlf' | 'mixed';

export function detectLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
    if (crlf > 0 && lf > 0) return 'mixed';
    i = text.indexOf('\n', i + 1);
  }
  return crlf > 0 ? 'crlf' : 'lf';
}

export function toLf(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

/** LF → CRLF, for text that came from `toLf` (a lone CR stays as it was). */
export function toCrlf(lfText: string): string {
  return lfText.replace(/\n/g, '\r\n');
}
