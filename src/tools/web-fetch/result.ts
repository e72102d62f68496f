/** WebFetch's output, and its two views: the tool_result for the model and display data for the person. */
import type { DisplayData, ModelResult } from '../../base/events.js';
import { dataHeader } from './answer.js';

interface Common {
  /** The URL as fetched (after the http → https upgrade). */
  url: string;
  fromCache: boolean;
  durationMs: number;
}

export type WebFetchOutput =
  | (Common & {
      kind: 'page';
      /** Where the page was found, after same-host redirects. */
      finalUrl: string;
      status: number;
      statusText: string;
      contentType: string;
      bytes: number;
      /** The body hit the size cap and was cut there. */
      truncated: boolean;
      answer: string;
      answeredBy: 'small-model' | 'page';
      notes: string[];
    })
  | (Common & { kind: 'redirect'; status: number; location: string })
  | (Common & {
      kind: 'error';
      /** What went wrong, for logs and tests: dns, refused, tls, timeout, http_status, unsupported_type… */
      reason: string;
      message: string;
      status?: number;
      contentType?: string;
      /** The start of an error page (4xx/5xx), as text; untrusted. */
      excerpt?: string;
    });

export function webFetchModelResult(out: WebFetchOutput): ModelResult {
  if (out.kind === 'redirect') {
    return {
      content:
        `${out.url} redirected (HTTP ${out.status}) to another host: ${out.location}\n` +
        'Redirects to another host are not followed automatically. To fetch it, call WebFetch again with url set to that URL.',
    };
  }
  if (out.kind === 'error') {
    const excerpt = out.excerpt ? `\n\n${dataHeader(out.url)}\n<error_page>\n${out.excerpt}\n</error_page>` : '';
    return { content: `WebFetch could not get ${out.url}: ${out.message}${excerpt}`, isError: true };
  }
  const notes = [
    out.finalUrl !== out.url ? `redirected to ${out.finalUrl}` : undefined,
    out.truncated ? `the page was larger than the download cap and was cut at ${formatBytes(out.bytes)}` : undefined,
    ...out.notes,
  ].filter(Boolean);
  const noteLine = notes.length ? `\n(${notes.join('; ')})` : '';
  const what = out.answeredBy === 'small-model' ? 'answer' : 'page';
  return { content: `${dataHeader(out.finalUrl)}${noteLine}\n<fetched_${what}>\n${out.answer}\n</fetched_${what}>` };
}

export function webFetchDisplay(out: WebFetchOutput): DisplayData {
  const cache = out.fromCache ? ' · from cache' : '';
  if (out.kind === 'redirect') {
    return {
      summary: `${out.status} redirect to ${out.location} (not followed)${cache}`,
      status: out.status,
      location: out.location,
      fromCache: out.fromCache,
    };
  }
  if (out.kind === 'error') {
    return { summary: `Failed: ${out.message}`, ...(out.status !== undefined ? { status: out.status } : {}), reason: out.reason, contentType: out.contentType };
  }
  const status = `${out.status}${out.statusText ? ` ${out.statusText}` : ''}`;
  const size = `${formatBytes(out.bytes)}${out.truncated ? ' (cut)' : ''}`;
  return {
    summary: `${status} · ${size} · ${out.contentType || 'no content type'}${cache}`,
    status: out.status,
    bytes: out.bytes,
    contentType: out.contentType,
    fromCache: out.fromCache,
    answeredBy: out.answeredBy,
    durationMs: out.durationMs,
  };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
