/**
 * Bytes → text the small model can read. HTML becomes Markdown (html.ts); text/*, JSON, XML and
 * Markdown pass through; a PDF goes through pdf-parse; other binary types are refused with their
 * content type named. Text is decoded with the declared charset (UTF-8 when none or unknown);
 * invalid bytes become U+FFFD instead of failing.
 */
import { htmlToMarkdown } from './html.js';
import { importModule } from '../../base/lib/import-module.js';

export type BodyKind = 'html' | 'text' | 'pdf' | 'binary' | 'unknown';

const TEXT_APPLICATION =
  /^application\/(json|ld\+json|xml|javascript|ecmascript|x-javascript|x-yaml|yaml|toml|x-toml|x-sh|sql|graphql|csv|rss\+xml|atom\+xml|x-ndjson|ndjson)$/;

/** The media type without parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

export function classifyContentType(contentType: string): BodyKind {
  const type = mediaType(contentType);
  if (!type) return 'unknown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || TEXT_APPLICATION.test(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text';
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (type === 'application/octet-stream' || type === 'binary/octet-stream') return 'unknown';
  return 'binary';
}

/** The refusal for a type we do not read, decided from the header alone (the body stays unread). */
export function refuseBinaryType(contentType: string): string | undefined {
  if (classifyContentType(contentType) !== 'binary') return undefined;
  return `The URL serves ${mediaType(contentType)}, a binary type WebFetch does not read. It reads HTML, text, JSON, XML, Markdown and PDF.`;
}

/** Sniffs a body without a useful content type: PDF by its magic, HTML by its first tag, text if it decodes cleanly. */
export function sniff(body: Uint8Array): BodyKind {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 1024));
  if (head.startsWith('%PDF-')) return 'pdf';
  const sample = body.subarray(0, 8192);
  if (sample.includes(0)) return 'binary';
  const text = new TextDecoder('utf-8').decode(sample);
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  if (bad > sample.length / 100 + 2) return 'binary';
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(text) ? 'html' : 'text';
}

/** Decodes with the charset the content type names; UTF-8 (with U+FFFD for bad bytes) otherwise. */
export function decodeText(body: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8', { fatal: false }).decode(body);
  } catch {
    return new TextDecoder('utf-8', { fatal: false }).decode(body);
  }
}

export type Converted = { ok: true; text: string; format: 'markdown' | 'text' | 'pdf'; note?: string } | { ok: false; message: string };

export interface ConvertOptions {
  signal: AbortSignal;
  /** Time limit for the HTML and PDF converters. */
  timeoutMs?: number;
}

export async function convertBody(body: Uint8Array, contentType: string, opts: ConvertOptions): Promise<Converted> {
  let kind = classifyContentType(contentType);
  if (kind === 'unknown') kind = sniff(body);
  switch (kind) {
    case 'html': {
      const r = await htmlToMarkdown(decodeText(body, contentType), opts);
      const notes = [r.note, r.cut ? 'only the start of the HTML was converted' : undefined].filter(Boolean);
      return { ok: true, text: r.markdown, format: 'markdown', ...(notes.length ? { note: notes.join('; ') } : {}) };
    }
    case 'text':
      return { ok: true, text: decodeText(body, contentType), format: 'text' };
    case 'pdf':
      return pdfToText(body, opts);
    default: {
      const type = mediaType(contentType) || 'no content type';
      return { ok: false, message: `The URL serves binary content (${type}) that WebFetch does not read. It reads HTML, text, JSON, XML, Markdown and PDF.` };
    }
  }
}

/** PDF text through pdf-parse, loaded only when a PDF arrives. */
async function pdfToText(body: Uint8Array, opts: ConvertOptions): Promise<Converted> {
  const { PDFParse } = await importModule<typeof import('pdf-parse')>('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    const result = await withLimits(parser.getText(), opts.signal, opts.timeoutMs ?? 15_000, 'reading the PDF');
    return { ok: true, text: result.text.trim(), format: 'pdf', note: `PDF, ${result.total} page${result.total === 1 ? '' : 's'}` };
  } catch (err) {
    if (opts.signal.aborted) throw err;
    return { ok: false, message: `The PDF could not be read: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** Settles with `work`, or rejects when the time runs out or the signal aborts; cleans up either way. */
function withLimits<T>(work: Promise<T>, signal: AbortSignal, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => done(() => reject(new Error('interrupted')));
    const timer = setTimeout(() => done(() => reject(new Error(`${what} took longer than ${timeoutMs / 1000} s`))), timeoutMs);
    function done(settle: () => void) {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    }
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => done(() => resolve(v)),
      (e: unknown) => done(() => reject(e)),
    );
  });
}
