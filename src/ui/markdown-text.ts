/**
 * Terminal Markdown for assistant text (marked + marked-terminal, code highlighted by cli-highlight),
 * and the two helpers that keep streaming cheap: `splitCompleted` moves finished blocks out of the
 * live area (they are written once, into <Static>), and `liveTail` keeps the live part short.
 */
import type { Marked } from 'marked';
import stripAnsi from 'strip-ansi';
import { markdownLib } from './lib/markdown-lib.js';
import { claudeStyle, type TerminalExtension } from './markdown-style.js';
import { theme as defaultTheme, type Theme } from './theme.js';
import { visibleWidth, wrapAnsi } from './wrap.js';

type MakeRenderer = (width: number) => Marked;
let makeRenderer: MakeRenderer | undefined;
let loading: Promise<void> | undefined;
const renderers = new Map<number, Marked>();

/**
 * Loads marked, marked-terminal and the highlighter (a few hundred ms) once, off the start-up path.
 * Until it has loaded, renderMarkdown returns the text as it is.
 */
export function preloadMarkdown(): Promise<void> {
  loading ??= (async () => {
    const { Marked, markedTerminal } = await markdownLib();
    makeRenderer = (width) => {
      const m = new Marked();
      const ext = markedTerminal({ reflowText: true, width, tab: 2, showSectionPrefix: false, emoji: false }) as unknown as TerminalExtension;
      m.use(claudeStyle(ext) as unknown as Parameters<Marked['use']>[0]);
      return m;
    };
  })();
  return loading;
}

export function markdownReady(): boolean {
  return makeRenderer !== undefined;
}

function rendererFor(width: number): Marked | undefined {
  if (!makeRenderer) {
    preloadMarkdown().catch(() => undefined);
    return undefined;
  }
  let m = renderers.get(width);
  if (!m) {
    m = makeRenderer(width);
    renderers.set(width, m);
  }
  return m;
}

/** Markdown → ANSI text, wrapped to `width` columns (code blocks keep their lines). */
export function renderMarkdown(text: string, width: number, theme: Theme = defaultTheme): string {
  if (!text.trim()) return '';
  const renderer = rendererFor(Math.max(20, width));
  let out: string;
  try {
    out = renderer ? (renderer.parse(text, { async: false }) as string) : text;
  } catch {
    out = text;
  }
  if (theme.noColor) out = stripAnsi(out);
  return wrapAnsi(out.replace(/\s+$/, '').replace(/^\n+/, ''), Math.max(20, width));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits streamed text at the last blank line that is outside a fenced code block: `done` can be
 * rendered for good, `rest` is still growing. Only whole lines are considered.
 */
export function splitCompleted(text: string): { done: string; rest: string } {
  let fence: string | undefined;
  let cut = 0;
  let pos = 0;
  for (;;) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) break;
    const line = text.slice(pos, nl);
    const m = FENCE.exec(line);
    if (m) {
      const marker = m[1]!;
      if (!fence) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    } else if (!fence && line.trim() === '' && text.slice(0, pos).trim() !== '') cut = nl + 1;
    pos = nl + 1;
  }
  return { done: text.slice(0, cut), rest: text.slice(cut) };
}

/** Rows a block of (ANSI) text takes at `width` columns. */
export function rowsOf(text: string, width: number): number {
  let rows = 0;
  for (const line of text.split('\n')) rows += Math.max(1, Math.ceil(visibleWidth(line) / Math.max(1, width)));
  return rows;
}

/** The end of `text` that fits in `maxRows` rows; `hidden` counts the source lines left out. */
export function tailRows(text: string, maxRows: number, width: number): { text: string; hidden: number } {
  const lines = text.split('\n');
  let rows = 0;
  let i = lines.length;
  while (i > 0) {
    const r = Math.max(1, Math.ceil(visibleWidth(lines[i - 1]!) / Math.max(1, width)));
    if (rows + r > maxRows) break;
    rows += r;
    i--;
  }
  return { text: lines.slice(i).join('\n'), hidden: i };
}

/**
 * The source to render for the live (still streaming) part. A long open code block keeps its
 * opening fence and only its last lines, so highlighting stays proportional to what is visible.
 */
export function liveSource(rest: string, maxLines: number): string {
  const lines = rest.split('\n');
  if (lines.length <= maxLines) return rest;
  let opener: string | undefined;
  for (const line of lines.slice(0, -maxLines)) {
    const m = FENCE.exec(line);
    if (!m) continue;
    if (!opener) opener = line;
    else if (line.trim() === m[1]) opener = undefined;
  }
  const tail = lines.slice(-maxLines);
  return opener ? [opener, ...tail].join('\n') : tail.join('\n');
}
