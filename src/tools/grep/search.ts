/**
 * The Grep search, in two steps that give the same, path-ordered result:
 *
 * 1. rg runs on all cores and its output is held in a bounded buffer (4 MiB by default). Most
 *    searches fit: the buffer is put in path order and paged, and the totals are known.
 * 2. When the buffer overflows (a pattern with a huge number of hits), rg is killed and run again
 *    with `--sort path`, streamed: lines before `offset` are skipped, one page is kept, and rg is
 *    killed one line past it. Memory stays bounded and the answer comes back fast, however many
 *    lines match.
 *
 * Path order makes `offset` paging stable from one call to the next, which rg's parallel order is not.
 */
import path from 'node:path';
import { ToolError } from '../../base/errors.js';
import { displayPath, locateRg, type RgLocation } from '../ripgrep/common.js';
import type { SearchDeny } from '../ripgrep/deny.js';
import { type RgRunResult, runRg } from '../../base/ripgrep/run.js';
import { type GrepArgsInput, grepArgs, type OutputMode } from './args.js';
import { ContentBuffer, ListBuffer, Pager } from './collect.js';
import { globFilter } from './glob-filter.js';
import { formatContent, parseContentLine, parseCountLine, SEPARATOR } from './lines.js';

export interface GrepSearchOptions {
  projectRoot: string;
  /** Flags added to rg's (gitignoreFlags). */
  extraFlags?: readonly string[];
  /** The working directory paths are shown relative to. */
  cwd: string;
  denyGlobs: readonly string[];
  /** The Read deny rules: patterns for rg and a check of every path found (see ripgrep/deny.ts). */
  deny?: SearchDeny;
  signal: AbortSignal;
  timeoutMs: number;
  env?: Record<string, string | undefined>;
  /** Budget of the step-1 buffer. */
  bufferBytes?: number;
  /** rg stand-in for tests. */
  command?: string;
}

export interface GrepRequest {
  input: GrepArgsInput;
  absTarget: string;
  targetIsDir: boolean;
  offset: number;
  /** 0 = no line limit. */
  limit: number;
  maxChars: number;
}

export interface GrepSearchResult {
  lines: string[];
  /** Output lines in all (before paging), when the whole result was seen. */
  total?: number;
  /** Files with matches, when known. */
  files?: number;
  /** Matching lines in all (count mode), when known. */
  matches?: number;
  more: boolean;
  nextOffset: number;
  cutAtChars: boolean;
  timedOut: boolean;
  /** rg reported files it could not read. */
  unreadable: boolean;
  /** Which step produced the result: `buffered` (1) or `streamed` (2). */
  strategy: 'buffered' | 'streamed';
}

export const DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;

interface Run {
  req: GrepRequest;
  opts: GrepSearchOptions;
  loc: RgLocation;
  mode: OutputMode;
  withContext: boolean;
  lineNumbers: boolean;
  deadline: number;
  /** Path as shown: relative to the cwd or absolute. */
  show: (printed: string) => string;
  /** Whether a file (as rg printed it) may be shown: not denied, and it passes the model's glob parameter. */
  keep: (printed: string) => boolean;
  /** Deny patterns relative to rg's working directory. */
  rgCwdDenyGlobs: string[];
}

export async function searchGrep(req: GrepRequest, opts: GrepSearchOptions): Promise<GrepSearchResult> {
  const { input } = req;
  const loc = locateRg(req.absTarget, opts.projectRoot, req.targetIsDir);
  const show = (printed: string) => displayPath(path.resolve(loc.cwd, printed), opts.cwd);
  const run: Run = {
    req,
    opts,
    loc,
    mode: input.output_mode ?? 'files_with_matches',
    withContext: [input['-A'], input['-B'], input['-C'], input.context].some((n) => n !== undefined && n > 0),
    lineNumbers: input['-n'] !== false,
    deadline: Date.now() + opts.timeoutMs,
    show,
    keep: keeper(input.glob, show, (printed) => opts.deny?.hides(path.resolve(loc.cwd, printed)) ?? false),
    rgCwdDenyGlobs: opts.deny?.globsAt(loc.cwd) ?? [],
  };
  const buffered = await runBuffered(run);
  if (buffered) return buffered;
  return runStreamed(run);
}

function rgOptions(run: Run, sorted: boolean) {
  return {
    args: grepArgs(run.req.input, {
      target: run.loc.target,
      sorted,
      denyGlobs: run.opts.denyGlobs,
      atProjectRoot: run.loc.atProjectRoot,
      rgCwdDenyGlobs: run.rgCwdDenyGlobs,
      ...(run.opts.extraFlags ? { extraFlags: run.opts.extraFlags } : {}),
    }),
    cwd: run.loc.cwd,
    signal: run.opts.signal,
    timeoutMs: Math.max(1, run.deadline - Date.now()),
    env: run.opts.env,
    command: run.opts.command,
    delimiter: run.mode === 'files_with_matches' ? ('\0' as const) : ('\n' as const),
  };
}

/** Step 1. Returns undefined when the buffer overflowed and step 2 must run. */
async function runBuffered(run: Run): Promise<GrepSearchResult | undefined> {
  const budget = run.opts.bufferBytes ?? DEFAULT_BUFFER_BYTES;
  const pager = new Pager(run.req.offset, run.req.limit, run.req.maxChars);
  if (run.mode === 'content') {
    const buffer = new ContentBuffer(budget);
    const onLine = (l: string) => {
      const parsed = parseContentLine(l, run.lineNumbers);
      return typeof parsed !== 'string' && !run.keep(parsed.path) ? true : buffer.add(parsed);
    };
    const r = await runRg({ ...rgOptions(run, false), onLine });
    if (buffer.overflowed && !r.timedOut) return undefined;
    failOnError(r, buffer.lineCount(false), run.req.input.pattern);
    const format = contentFormatter(run);
    for (const line of buffer.lines(run.withContext, (p, body) => format(p, body))) if (!pager.push(line)) break;
    return result(pager, r, 'buffered', { total: buffer.lineCount(run.withContext), files: buffer.fileCount });
  }
  const buffer = new ListBuffer(budget);
  const r = await runRg({ ...rgOptions(run, false), onLine: (l) => addListLine(run, buffer, l) });
  if (buffer.overflowed && !r.timedOut) return undefined;
  failOnError(r, buffer.entries.length, run.req.input.pattern);
  let matches = 0;
  for (const e of buffer.entries) matches += e.count;
  for (const e of buffer.sorted()) if (!pager.push(listLine(run, e.path, e.count))) break;
  const total = buffer.entries.length;
  return result(pager, r, 'buffered', { total, files: total, matches: run.mode === 'count' ? matches : undefined });
}

/** Step 2: `--sort path`, streamed into one page. Totals are known only if the stream ran out. */
async function runStreamed(run: Run): Promise<GrepSearchResult> {
  const pager = new Pager(run.req.offset, run.req.limit, run.req.maxChars);
  let matches = 0;
  const onLine =
    run.mode === 'content'
      ? streamedContent(run, pager)
      : (line: string) => {
          const entry = parseListLine(run.mode, line);
          if (!entry || !run.keep(entry.path)) return true;
          matches += entry.count;
          return pager.push(listLine(run, entry.path, entry.count));
        };
  const r = await runRg({ ...rgOptions(run, true), onLine });
  failOnError(r, r.lines, run.req.input.pattern);
  if (pager.more) return result(pager, r, 'streamed', {});
  const files = run.mode === 'content' ? undefined : pager.seen;
  return result(pager, r, 'streamed', { total: pager.seen, files, matches: run.mode === 'count' ? matches : undefined });
}

/**
 * Content lines into the pager. A `--` is held until a kept line follows, so files the glob filter
 * drops leave no doubled or leading separators: the same lines the buffered step yields.
 */
function streamedContent(run: Run, pager: Pager): (line: string) => boolean {
  const format = contentFormatter(run);
  let pendingSeparator = false;
  let emitted = false;
  return (line) => {
    const parsed = parseContentLine(line, run.lineNumbers);
    if (parsed === SEPARATOR) {
      pendingSeparator = true;
      return true;
    }
    if (typeof parsed === 'string') return pager.push(parsed);
    if (!run.keep(parsed.path)) return true;
    if (pendingSeparator && emitted && !pager.push(SEPARATOR)) return false;
    pendingSeparator = false;
    emitted = true;
    return pager.push(format(parsed.path, parsed.body));
  };
}

/**
 * The deny check and the glob filter over a printed path, remembering the last answer (a file's
 * lines come together). A denied file is dropped whole: its name, its lines and its count.
 */
function keeper(glob: string | undefined, show: (printed: string) => string, hidden: (printed: string) => boolean): (printed: string) => boolean {
  const filter = globFilter(glob);
  let last: string | undefined;
  let answer = false;
  return (printed) => {
    if (printed !== last) {
      last = printed;
      answer = !hidden(printed) && (!filter || filter(show(printed)));
    }
    return answer;
  };
}

function contentFormatter(run: Run): (printed: string, body: string) => string {
  // Searching one file: the path would repeat on every line, so it is left out.
  if (!run.req.targetIsDir) return (_p, body) => formatContent(undefined, body);
  let lastPrinted = '';
  let lastShown = '';
  return (printed, body) => {
    if (printed !== lastPrinted) {
      lastPrinted = printed;
      lastShown = run.show(printed);
    }
    return formatContent(lastShown, body);
  };
}

function addListLine(run: Run, buffer: ListBuffer, line: string): boolean {
  const entry = parseListLine(run.mode, line);
  return entry && run.keep(entry.path) ? buffer.add(entry.path, entry.count) : true;
}

function parseListLine(mode: OutputMode, line: string): { path: string; count: number } | undefined {
  if (line === '') return undefined;
  return mode === 'count' ? parseCountLine(line) : { path: line, count: 1 };
}

function listLine(run: Run, printed: string, count: number): string {
  return run.mode === 'count' ? `${run.show(printed)}:${count}` : run.show(printed);
}

function result(
  pager: Pager,
  r: RgRunResult,
  strategy: GrepSearchResult['strategy'],
  totals: Pick<GrepSearchResult, 'total' | 'files' | 'matches'>,
): GrepSearchResult {
  const known = r.timedOut ? {} : totals;
  return {
    lines: pager.lines,
    ...known,
    more: pager.more,
    nextOffset: pager.nextOffset,
    cutAtChars: pager.cutAtChars,
    timedOut: r.timedOut,
    unreadable: r.exitCode === 2,
    strategy,
  };
}

/** rg exits with 2 for errors; without any output that is a failure to report (bad regex, type, glob). */
function failOnError(r: RgRunResult, outputLines: number, pattern: string): void {
  if (r.exitCode !== 2 || outputLines > 0 || r.stderr === '') return;
  const detail = r.stderr.replace(/^rg: /gm, '');
  if (/regex parse error|look-around|backreferences|PCRE2/i.test(detail)) {
    throw new ToolError(
      'invalid_input',
      `Invalid regular expression ${JSON.stringify(pattern)} (ripgrep syntax):\n${detail}\n` +
        'Escape special characters with a backslash, e.g. \\( or \\{, to match them literally.',
    );
  }
  throw new ToolError('execution_failed', `ripgrep failed: ${detail}`);
}
