/**
 * Which URLs WebFetch accepts, and how it writes them: http and https only, no credentials, at most
 * MAX_URL_LENGTH characters; `http` becomes `https` except for loopback hosts (this machine has no
 * certificate to show, and the tests serve plain HTTP there).
 */
import { isLoopbackHost } from './private-address.js';

export const MAX_URL_LENGTH = 2_000;

export type UrlCheck = { ok: true; url: URL; upgraded: boolean } | { ok: false; message: string };

/** Parses and checks a model-given URL; the result is the URL that will be fetched. */
export function parseFetchUrl(raw: string): UrlCheck {
  const text = raw.trim();
  if (!text) return { ok: false, message: 'url is empty. Pass a full http:// or https:// URL.' };
  if (text.length > MAX_URL_LENGTH) {
    return { ok: false, message: `url is ${text.length} characters long; at most ${MAX_URL_LENGTH} are accepted.` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: `"${shorten(text)}" is not a valid URL. Pass a full URL such as https://example.com/page.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `The ${url.protocol.replace(/:$/, '')} scheme is not supported; WebFetch fetches http:// and https:// URLs only.` };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'URLs with credentials (user:password@host) are refused: credentials must not travel in a URL. Fetch a URL without them.' };
  }
  if (!url.hostname) return { ok: false, message: `"${shorten(text)}" has no host.` };
  const upgraded = url.protocol === 'http:' && !isLoopbackHost(url.hostname);
  if (upgraded) url.protocol = 'https:';
  return { ok: true, url, upgraded };
}

/**
 * The form of a URL used to compare it with the conversation's seen URLs: as it would be fetched
 * (parsed, http upgraded), without a fragment. A different query string is a different URL on
 * purpose: the query is where a made-up URL would carry data out.
 */
export function seenKey(raw: string): string {
  const checked = parseFetchUrl(raw);
  if (!checked.ok) return raw.trim();
  const url = new URL(checked.url.href);
  url.hash = '';
  return url.href;
}

/** Was this URL (in any spelling that fetches the same thing) seen in the conversation? */
export function isSeen(raw: string, seen: ReadonlySet<string> | undefined): boolean {
  if (!seen || seen.size === 0) return false;
  if (seen.has(raw.trim())) return true;
  const key = seenKey(raw);
  for (const s of seen) if (seenKey(s) === key) return true;
  return false;
}

/** Same host and port: a redirect there is followed (an http → https upgrade on it too). */
export function isSameHost(from: URL, to: URL): boolean {
  if (from.hostname.toLowerCase() !== to.hostname.toLowerCase()) return false;
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  if (port(from) === port(to)) return from.protocol === to.protocol || to.protocol === 'https:';
  // http://host → https://host changes the default port with the scheme.
  return from.protocol === 'http:' && to.protocol === 'https:' && !from.port && !to.port;
}

/** Strips a URL to at most `max` characters for messages. */
export function shorten(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
