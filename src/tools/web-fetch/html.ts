/**
 * HTML → Markdown, bounded. First a linear pass drops what is never content (scripts, styles,
 * comments, inline SVG…), which on real pages is most of the bytes, and stops once MAX_HTML_CHARS
 * are kept (the Markdown the model gets is cut far shorter anyway). Turndown then runs in a worker
 * (html-worker.ts), never in this thread: its parser takes seconds on a hostile page of a few
 * kilobytes (deep nesting, misnested formatting tags). If it fails or runs out of time, the page
 * comes back as plain text instead.
 */
import { MAX_MARKDOWN_FOR_MODEL } from './answer.js';
import { ConvertError, convertInWorker } from './html-worker.js';

/** HTML beyond this (after stripping noise) is not converted. */
export const MAX_HTML_CHARS = 1_000_000;
/**
 * Longer HTML is first converted only this far: when that already gives the small model all the
 * Markdown it will read, the rest (most of the conversion time) is skipped.
 */
export const FIRST_PASS_CHARS = 256 * 1024;
/**
 * Deeper nesting goes to plain text without turndown: its parser is quadratic in the depth (13,000
 * nested divs, 64 KB, take seconds). Real pages nest a few dozen levels.
 */
export const MAX_NESTING = 400;

const NOISE_TAGS = ['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'head'];

export interface HtmlResult {
  markdown: string;
  /** How it was made: turndown, or the plain-text fallback (with the reason). */
  via: 'turndown' | 'text';
  note?: string;
  /** Only the start of the HTML was converted (it was longer than needed or than MAX_HTML_CHARS). */
  cut: boolean;
}

export interface HtmlOptions {
  signal: AbortSignal;
  timeoutMs?: number;
}

export async function htmlToMarkdown(html: string, opts: HtmlOptions): Promise<HtmlResult> {
  const stripped = stripNoise(html, MAX_HTML_CHARS + 1);
  const cut = stripped.length > MAX_HTML_CHARS;
  const input = cut ? cutAtTag(stripped, MAX_HTML_CHARS) : stripped;
  if (nestsDeeperThan(input, MAX_NESTING)) {
    return { markdown: htmlToText(input), via: 'text', note: `shown as plain text: its elements nest more than ${MAX_NESTING} deep`, cut };
  }
  try {
    if (input.length > FIRST_PASS_CHARS) {
      const first = tidy(await convertInWorker(cutAtTag(input, FIRST_PASS_CHARS), opts));
      if (first.length >= MAX_MARKDOWN_FOR_MODEL) return { markdown: first, via: 'turndown', cut: true };
    }
    return { markdown: tidy(await convertInWorker(input, opts)), via: 'turndown', cut };
  } catch (err) {
    if (err instanceof ConvertError && err.reason === 'aborted') throw err;
    const why = err instanceof Error ? err.message : String(err);
    return { markdown: htmlToText(input), via: 'text', note: `shown as plain text: ${why}`, cut };
  }
}

/**
 * Collapses runs of blank lines and trailing spaces that removed elements leave behind. Line by
 * line on purpose: /[ \t]+\n/ is quadratic on a long run of spaces without a newline.
 */
export function tidy(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cuts before the last tag that starts under `max`, so no tag is split. */
function cutAtTag(html: string, max: number): string {
  const lt = html.lastIndexOf('<', max);
  return html.slice(0, lt > max / 2 ? lt : max);
}

/**
 * Drops comments and the elements in NOISE_TAGS with their content, in one linear pass (no regular
 * expression that could backtrack on a hostile page). An element that never closes runs to the end.
 * Stops once `keep` characters are kept: what follows would be cut anyway.
 */
export function stripNoise(html: string, keep = Infinity): string {
  const parts: string[] = [];
  let kept = 0;
  let copyFrom = 0;
  let i = 0;
  for (;;) {
    const lt = html.indexOf('<', i);
    if (lt === -1 || kept + (lt - copyFrom) >= keep) break;
    let skipTo = -1;
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      skipTo = end === -1 ? html.length : end + 3;
    } else {
      const tag = noiseTagAt(html, lt);
      if (tag) skipTo = endOfElement(html, lt, tag);
    }
    if (skipTo === -1) {
      i = lt + 1;
      continue;
    }
    parts.push(html.slice(copyFrom, lt));
    kept += lt - copyFrom;
    copyFrom = i = skipTo;
  }
  parts.push(html.slice(copyFrom, copyFrom + Math.max(0, keep - kept)));
  return parts.join('');
}

/** The noise tag opening at `lt` (any letter case), if any. */
function noiseTagAt(html: string, lt: number): string | undefined {
  const head = html.slice(lt + 1, lt + 10).toLowerCase();
  for (const tag of NOISE_TAGS) {
    if (!head.startsWith(tag)) continue;
    const next = html.charAt(lt + 1 + tag.length);
    if (next === '>' || next === '/' || next === '' || /\s/.test(next)) return tag;
  }
  return undefined;
}

/** Where the element opened at `lt` ends, closing tag included; the end of the text if never. */
function endOfElement(html: string, lt: number, tag: string): number {
  const gt = html.indexOf('>', lt);
  if (gt === -1) return html.length;
  if (html.charAt(gt - 1) === '/') return gt + 1; // <svg ... />
  const close = indexOfClose(html, tag, gt);
  if (close === -1) return html.length;
  const closeGt = html.indexOf('>', close);
  return closeGt === -1 ? html.length : closeGt + 1;
}

/** The next `</tag` from `from`, in any letter case, scanning each `</` once. */
function indexOfClose(html: string, tag: string, from: number): number {
  for (let at = html.indexOf('</', from); at !== -1; at = html.indexOf('</', at + 2)) {
    if (html.slice(at + 2, at + 2 + tag.length).toLowerCase() === tag) return at;
  }
  return -1;
}

const VOID_OR_SELF_CLOSING = new Set(
  'area base br col embed hr img input link meta param source track wbr p li dt dd tr td th option optgroup thead tbody tfoot colgroup rb rt rtc rp'.split(' '),
);

/**
 * Does any element nest deeper than `limit`? Counts open minus closed tags in one pass, ignoring
 * void elements and those whose end tag may be left out; unclosed formatting tags count, as the
 * parser nests them too.
 */
export function nestsDeeperThan(html: string, limit: number): boolean {
  let depth = 0;
  let gt = -2; // position of the next ">" (-1: there is none)
  for (let lt = html.indexOf('<'); lt !== -1; lt = html.indexOf('<', lt + 1)) {
    const closing = html.charCodeAt(lt + 1) === 47; // '/'
    const name = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(html.slice(lt + (closing ? 2 : 1), lt + 20))?.[0]?.toLowerCase();
    if (!name || VOID_OR_SELF_CLOSING.has(name)) continue;
    if (closing) {
      if (depth > 0) depth--;
      continue;
    }
    if (gt !== -1 && gt < lt) gt = html.indexOf('>', lt); // found once per tag, never rescanned
    if (gt !== -1 && html.charCodeAt(gt - 1) === 47) continue; // <x/>
    if (++depth > limit) return true;
  }
  return false;
}

const BLOCK_TAG = /^(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|header|footer|blockquote|pre|hr|dt|dd)$/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Plain text from HTML in one linear pass: tags removed, block tags as line breaks, entities decoded. */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  let i = 0;
  for (;;) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      parts.push(html.slice(i));
      break;
    }
    parts.push(html.slice(i, lt));
    const gt = html.indexOf('>', lt);
    if (gt === -1) break;
    const name = /^<\/?\s*([a-zA-Z0-9]+)/.exec(html.slice(lt, Math.min(gt, lt + 20)))?.[1]?.toLowerCase();
    if (name && BLOCK_TAG.test(name)) parts.push('\n');
    i = gt + 1;
  }
  return decodeEntities(parts.join(''))
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}
