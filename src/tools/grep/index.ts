/**
 * Grep: search file contents with ripgrep. Read-only and concurrency-safe. Output is streamed and
 * bounded (see search.ts): a pattern with millions of hits costs one page of memory.
 */
import { monotonicMs } from '../../base/clock.js';
import { realpath, stat } from '../../base/fs/lazy-fs.js';
import type { z } from 'zod';
import type { Zod } from '../../base/lib/zod-parts.js';
import { ToolError } from '../../base/errors.js';
import { resolveToolPath } from '../../base/paths.js';
import { gitignoreFlags, SEARCH_TIMEOUT_MS } from '../ripgrep/common.js';
import { searchDeny } from '../ripgrep/deny.js';
import { searchPermission } from '../ripgrep/permission.js';
import { defineTool, lazySchema } from '../../base/tool.js';
import { DEFAULT_HEAD_LIMIT, grepDescription, MAX_RESULT_CHARS } from './description.js';
import { grepModelText, grepSummaryLine, type GrepOutput } from './format.js';
import { searchGrep } from './search.js';

const lines = (zod: Zod, what: string) => zod.number().int().min(0).optional().describe(what);

export const grepInputSchema = lazySchema((z) =>
  z.strictObject({
    pattern: z.string().describe('The regular expression to search for in file contents (ripgrep syntax).'),
    path: z.string().optional().describe('File or directory to search in. Defaults to the current working directory.'),
    glob: z
      .string()
      .optional()
      .describe(
        'Glob that files must match, e.g. "*.js", "*.{ts,tsx}", "src/**/*.ts". Without "/" it matches file names at any depth; with "/" the path as results show it; a leading "!" excludes. Separate several with spaces.',
      ),
    type: z.string().optional().describe('File type to search (rg --type), e.g. "js", "py", "rust". Faster than glob for standard types.'),
    output_mode: z
      .enum(['content', 'files_with_matches', 'count'])
      .optional()
      .describe(
        '"content" shows matching lines (with -A/-B/-C context, -n line numbers); "files_with_matches" lists matching files; "count" shows matching lines per file. Default "files_with_matches".',
      ),
    '-A': lines(z, 'Lines to show after each match (rg -A). Content mode only.'),
    '-B': lines(z, 'Lines to show before each match (rg -B). Content mode only.'),
    '-C': lines(z, 'Lines to show before and after each match (rg -C). Content mode only.'),
    context: lines(z, 'Same as -C: lines to show before and after each match. Content mode only.'),
    '-n': z.boolean().optional().describe('Show line numbers (rg -n). Content mode only. Default true.'),
    '-i': z.boolean().optional().describe('Case-insensitive search (rg -i).'),
    multiline: z.boolean().optional().describe('Let a match span lines; "." then also matches newlines (rg -U --multiline-dotall). Default false.'),
    head_limit: lines(
      z,
      `Show at most this many lines (content) or entries (files, count), like "| head -N". Default ${DEFAULT_HEAD_LIMIT}; 0 for no line limit.`,
    ),
    offset: lines(z, 'Skip this many lines or entries first, like "| tail -n +N+1"; use it to get the next page. Default 0.'),
  }),
);

export type GrepInput = z.infer<typeof grepInputSchema>;
export type { GrepOutput } from './format.js';

const rootOf = (input: GrepInput, ctx: { cwd: string; homeDir: string }) => resolveToolPath(input.path ?? '.', ctx.cwd, ctx.homeDir);

export const grepTool = defineTool<GrepInput, GrepOutput>({
  name: 'Grep',
  description: grepDescription,
  inputSchema: grepInputSchema,

  isReadOnly: () => true,
  isConcurrencySafe: () => true,

  async validateInput(input, ctx) {
    if (input.pattern === '') return { ok: false, message: 'pattern is empty. Pass a regular expression to search for.' };
    const root = rootOf(input, ctx);
    const s = await stat(root).catch(() => undefined);
    if (!s) return { ok: false, message: `Path does not exist: ${root}. Omit path to search the working directory (${ctx.cwd}).` };
    if (!s.isDirectory() && !s.isFile()) return { ok: false, message: `Not a regular file or directory: ${root}.` };
    return { ok: true };
  },

  permissionPaths: (input, ctx) => ({ access: 'read', paths: [rootOf(input, ctx)] }),
  async checkPermissions(input, ctx) {
    const root = rootOf(input, ctx);
    const isDir = (await stat(root).catch(() => undefined))?.isDirectory() ?? true;
    return searchPermission('Grep', root, isDir, ctx);
  },

  async *call(input, ctx) {
    const started = monotonicMs();
    const root = rootOf(input, ctx);
    // rg runs on the real folder: `/proc/self/…` names another folder in rg's own process, and the
    // ignore files and deny patterns that apply are those of the real place.
    const realRoot = await realpath(root).catch(() => root);
    const targetIsDir = (await stat(realRoot)).isDirectory();
    const deny = searchDeny(ctx);
    // rg searches a path given to it even when a --glob excludes it, so a denied file is refused here
    // (the permission gate refuses it first; this holds when the tool is called without the gate).
    if (!targetIsDir && (deny.hides(root) || deny.hides(realRoot))) {
      throw new ToolError('permission_denied', `Reading ${root} is denied by a Read rule in the settings.`);
    }
    const offset = input.offset ?? 0;
    const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
    const found = await searchGrep(
      { input, absTarget: realRoot, targetIsDir, offset, limit, maxChars: MAX_RESULT_CHARS },
      {
        projectRoot: ctx.projectRoot,
        cwd: ctx.cwd,
        denyGlobs: deny.projectGlobs,
        deny,
        signal: ctx.signal,
        timeoutMs: SEARCH_TIMEOUT_MS,
        env: ctx.env,
        extraFlags: gitignoreFlags(ctx.settings),
      },
    );
    return {
      ...found,
      mode: input.output_mode ?? 'files_with_matches',
      pattern: input.pattern,
      root,
      offset,
      limit,
      maxChars: MAX_RESULT_CHARS,
      durationMs: Math.round(monotonicMs() - started),
    };
  },

  toModelResult: (output) => ({ content: grepModelText(output) }),

  summary(input) {
    const where = input.path ? ` in ${input.path}` : '';
    const filter = [input.glob && `glob ${input.glob}`, input.type && `type ${input.type}`].filter(Boolean).join(', ');
    return `Grep ${JSON.stringify(input.pattern)}${where}${filter ? ` (${filter})` : ''}`;
  },

  display: (output) => ({
    summary: grepSummaryLine(output),
    mode: output.mode,
    shown: output.lines.length,
    total: output.total,
    files: output.files,
    matches: output.matches,
    more: output.more,
    timedOut: output.timedOut,
    durationMs: output.durationMs,
  }),
});
