/**
 * Glob: find files by name. Read-only and concurrency-safe; runs `rg --files` (see search.ts), so
 * ignore files are honoured and nothing walks the tree by hand.
 */
import { monotonicMs } from '../../base/clock.js';
import path from 'node:path';
import { realpath, stat } from '../../base/fs/lazy-fs.js';
import type { z } from 'zod';
import { displayPath, gitignoreFlags, SEARCH_TIMEOUT_MS } from '../ripgrep/common.js';
import { searchDeny } from '../ripgrep/deny.js';
import { searchPermission } from '../ripgrep/permission.js';
import { defineTool, type ToolContext, lazySchema } from '../../base/tool.js';
import { GLOB_LIMIT, globDescription } from './description.js';
import { globModelText, globSummaryLine, type GlobOutput } from './format.js';
import { patternProblem, planGlob, type GlobPlan } from './pattern.js';
import { searchGlob } from './search.js';

export const globInputSchema = lazySchema((z) =>
  z.strictObject({
    pattern: z.string().describe('The glob pattern to match file paths against, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
    path: z.string().optional().describe('The directory to search in. Omit it to search the current working directory; do not pass "undefined" or "null".'),
  }),
);

export type GlobInput = z.infer<typeof globInputSchema>;
export type { GlobOutput } from './format.js';

function plan(input: GlobInput, ctx: { cwd: string; homeDir: string }): GlobPlan {
  return planGlob(input.pattern, input.path, ctx.cwd, ctx.homeDir);
}

async function isDirectory(p: string): Promise<boolean> {
  const s = await stat(p).catch(() => undefined);
  return s?.isDirectory() ?? false;
}

/**
 * The plan on the real folder: `/proc/self/…` names another folder in rg's own process, and the
 * ignore files and deny patterns that apply are those of the real place.
 */
async function realPlan(p: GlobPlan): Promise<GlobPlan> {
  const root = await realpath(p.root).catch(() => p.root);
  return root === p.root ? p : { ...p, root, walkDir: path.join(root, path.relative(p.root, p.walkDir)) };
}

export const globTool = defineTool<GlobInput, GlobOutput>({
  name: 'Glob',
  description: globDescription,
  inputSchema: globInputSchema,

  isReadOnly: () => true,
  isConcurrencySafe: () => true,

  async validateInput(input, ctx) {
    const problem = patternProblem(input.pattern);
    if (problem) return { ok: false, message: problem };
    const { root } = plan(input, ctx);
    const s = await stat(root).catch(() => undefined);
    if (!s) return { ok: false, message: `Directory does not exist: ${root}. Omit path to search the working directory (${ctx.cwd}).` };
    if (!s.isDirectory()) {
      return { ok: false, message: `Not a directory: ${root}. Pass the directory that holds it as path, and a pattern for the file name.` };
    }
    return { ok: true };
  },

  permissionPaths: (input, ctx) => ({ access: 'read', paths: [plan(input, ctx).root] }),
  checkPermissions: (input, ctx) => searchPermission('Glob', plan(input, ctx).root, true, ctx),

  async *call(input, ctx: ToolContext) {
    const started = monotonicMs();
    const p = await realPlan(plan(input, ctx));
    // The literal start of the pattern narrows the walk; if it names no folder, walk the root.
    const walkable = p.walkDir === p.root || (await isDirectory(p.walkDir)) ? p : { ...p, walkDir: p.root };
    const found = await searchGlob(walkable, {
      projectRoot: ctx.projectRoot,
      extraFlags: gitignoreFlags(ctx.settings),
      deny: searchDeny(ctx),
      signal: ctx.signal,
      timeoutMs: SEARCH_TIMEOUT_MS,
      limit: GLOB_LIMIT,
      env: ctx.env,
    });
    return {
      pattern: input.pattern,
      root: p.root,
      files: found.files.map((f) => displayPath(f.path, ctx.cwd)),
      total: found.total,
      timedOut: found.timedOut,
      durationMs: Math.round(monotonicMs() - started),
    };
  },

  toModelResult: (output) => ({ content: globModelText(output) }),

  summary: (input) => (input.path ? `Glob ${input.pattern} in ${input.path}` : `Glob ${input.pattern}`),

  display: (output) => ({
    summary: globSummaryLine(output),
    files: output.files.length,
    total: output.total,
    truncated: output.total > output.files.length,
    timedOut: output.timedOut,
    durationMs: output.durationMs,
  }),
});
