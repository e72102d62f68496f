/**
 * Glob and Grep against the same rg command run directly, on a generated tree (50,000 files, about
 * 300 MB by default), plus a search with over a million matching lines: its time and peak RSS at the
 * default limits, measured in a separate process running the bundled tool. Prints figures; asserts
 * nothing.
 *
 *   npx tsx bench/search.ts [--files 50000] [--avg-bytes 6000] [--runs 5] [--tree DIR]
 *
 * The tree is kept in the temp folder and reused by later runs with the same size.
 * Targets: the tool adds at most 15% + 30 ms over raw rg; the million-match search stays
 * under 150 MiB peak RSS and returns in under a second.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { rgPath } from '@vscode/ripgrep';
import { build } from 'esbuild';
import { globTool } from '../src/tools/glob/index.js';
import { grepArgs, type GrepArgsInput } from '../src/tools/grep/args.js';
import { grepTool } from '../src/tools/grep/index.js';
import { globArgs } from '../src/tools/glob/search.js';
import { ReadState } from '../src/base/read-state.js';
import type { Tool, ToolContext } from '../src/base/tool.js';
import { COMMON_TOKEN, makeTree, RARE_TOKEN, type TreeStats } from './make-tree.js';
import { median } from './measure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    files: { type: 'string', default: '50000' },
    'avg-bytes': { type: 'string', default: '6000' },
    runs: { type: 'string', default: '5' },
    tree: { type: 'string' },
  },
});
const RUNS = Number(opt.runs);

// ---------------------------------------------------------------------------------------------
// The tree

function prepareTree(): { dir: string; stats: TreeStats; generatedMs?: number } {
  const files = Number(opt.files);
  const avgBytes = Number(opt['avg-bytes']);
  const dir = path.resolve(opt.tree ?? path.join(tmpdir(), `wicket-bench-search-${files}-${avgBytes}`));
  const marker = path.join(dir, '.bench-tree.json');
  if (existsSync(marker)) return { dir, stats: JSON.parse(readFileSync(marker, 'utf8')) as TreeStats };
  const t0 = performance.now();
  mkdirSync(dir, { recursive: true });
  const stats = makeTree(dir, { files, avgBytes });
  writeFileSync(marker, JSON.stringify(stats));
  return { dir, stats, generatedMs: performance.now() - t0 };
}

// ---------------------------------------------------------------------------------------------
// Running rg directly and the tools in process

/** Runs rg with `args` in `cwd` and reads all of its output; resolves with the byte count. */
function rawRg(args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

function contextFor(dir: string): ToolContext {
  return {
    cwd: dir,
    projectRoot: dir,
    additionalDirs: [],
    homeDir: tmpdir(),
    wicketHome: path.join(tmpdir(), '.wicket-bench'),
    sessionId: 'bench',
    toolUseId: 'bench',
    signal: new AbortController().signal,
    permissionMode: 'default',
    readState: new ReadState(),
    env: process.env,
    settings: {},
  };
}

async function runTool<I, O>(tool: Tool<I, O>, raw: unknown, ctx: ToolContext): Promise<O> {
  const input = tool.inputSchema.parse(raw);
  const valid = await tool.validateInput?.(input, ctx);
  if (valid && !valid.ok) throw new Error(valid.message);
  const gen = tool.call(input, ctx);
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
  }
}

interface Case {
  name: string;
  /** The rg command the tool runs (or, where noted, the rg command that gives the same answer). */
  rawArgs: string[];
  tool: () => Promise<unknown>;
}

interface Row {
  name: string;
  rawMs: number;
  toolMs: number;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Raw and tool runs interleaved, so a busy machine slows both alike; medians of `RUNS`. */
async function measureCase(c: Case, dir: string): Promise<Row> {
  await rawRg(c.rawArgs, dir);
  await c.tool();
  const raw: number[] = [];
  const tool: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    raw.push(await time(() => rawRg(c.rawArgs, dir)));
    tool.push(await time(c.tool));
  }
  return { name: c.name, rawMs: median(raw), toolMs: median(tool) };
}

function cases(dir: string): Case[] {
  const ctx = contextFor(dir);
  const grepRaw = (input: GrepArgsInput) => grepArgs(input, { target: '.', sorted: false, denyGlobs: [], atProjectRoot: true });
  const grep = (input: GrepArgsInput & Record<string, unknown>): Case => ({
    name: `Grep ${JSON.stringify(input)}`,
    rawArgs: grepRaw(input),
    tool: () => runTool(grepTool, input, ctx),
  });
  const glob = (pattern: string, walk = '.'): Case => ({
    name: `Glob ${pattern}`,
    rawArgs: globArgs(walk, [], true),
    tool: () => runTool(globTool, { pattern }, ctx),
  });
  return [
    grep({ pattern: RARE_TOKEN }),
    grep({ pattern: RARE_TOKEN, output_mode: 'content' }),
    grep({ pattern: `${RARE_TOKEN}|handler9\\d\\d\\(`, output_mode: 'content', '-C': 2 }),
    grep({ pattern: 'export function render1\\d\\d\\(' }),
    grep({ pattern: RARE_TOKEN, output_mode: 'count' }),
    glob('**/file0001*.ts'),
    glob('pkg01/**/*.ts', 'pkg01'),
    glob('**/*.ts'),
    {
      name: 'Glob **/*.ts vs rg --sortr modified (rg sorting by mtime itself)',
      rawArgs: [...globArgs('.', [], true).slice(0, -2), '--sortr', 'modified', '--', '.'],
      tool: () => runTool(globTool, { pattern: '**/*.ts' }, ctx),
    },
  ];
}

function printRows(rows: Row[]): void {
  console.log('\n| case | raw rg (ms) | tool (ms) | added | target ≤ raw×1.15+30 |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const r of rows) {
    const limit = r.rawMs * 1.15 + 30;
    const added = r.toolMs - r.rawMs;
    const pct = r.rawMs > 0 ? ` (${((added / r.rawMs) * 100).toFixed(0)}%)` : '';
    const ok = r.toolMs <= limit ? 'within' : `OVER by ${(r.toolMs - limit).toFixed(0)} ms`;
    console.log(`| ${r.name} | ${r.rawMs.toFixed(0)} | ${r.toolMs.toFixed(0)} | ${added.toFixed(0)} ms${pct} | ${ok} |`);
  }
}

// ---------------------------------------------------------------------------------------------
// The million-match search in its own process: time and peak RSS of the bundled tool

const CHILD_SOURCE = `
import { grepTool } from './src/tools/grep/index.ts';
import { globTool } from './src/tools/glob/index.ts';
const [dir, json, which] = process.argv.slice(2);
const tool = which === 'glob' ? globTool : grepTool;
const ctx = { cwd: dir, projectRoot: dir, additionalDirs: [], homeDir: dir, wicketHome: dir, sessionId: 'b', toolUseId: 'b',
  signal: new AbortController().signal, permissionMode: 'default', readState: undefined, env: process.env, settings: {} };
const t0 = performance.now();
let out;
if (json !== 'none') {
  const input = tool.inputSchema.parse(JSON.parse(json));
  const gen = tool.call(input, ctx);
  for (;;) { const s = await gen.next(); if (s.done) { out = s.value; break; } }
}
const ms = performance.now() - t0;
const text = out ? tool.toModelResult(out, {}).content : '';
console.log(JSON.stringify({ ms, rssMiB: process.resourceUsage().maxRSS / 1024, chars: text.length, strategy: out?.strategy }));
`;

async function bundleChild(): Promise<string> {
  const outdir = path.join(ROOT, 'node_modules', '.cache', 'wicket-bench-search');
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, 'child.mjs');
  await build({
    stdin: { contents: CHILD_SOURCE, resolveDir: ROOT, loader: 'ts', sourcefile: 'child.ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    external: ['@vscode/ripgrep'],
    banner: { js: "import{createRequire as __wcr}from'node:module';const require=__wcr(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}

interface ChildResult {
  ms: number;
  rssMiB: number;
  chars: number;
  strategy?: string;
  wallMs: number;
}

function runChild(file: string, dir: string, input: string, which = 'grep'): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [file, dir, input, which], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`child exited ${code}`));
      resolve({ ...(JSON.parse(out) as Omit<ChildResult, 'wallMs'>), wallMs: performance.now() - t0 });
    });
  });
}

async function millionMatches(dir: string, stats: TreeStats): Promise<void> {
  const file = await bundleChild();
  const input = { pattern: COMMON_TOKEN, output_mode: 'content' } as const;
  const rawArgs = grepArgs(input, { target: '.', sorted: false, denyGlobs: [], atProjectRoot: true });
  const rawMs = await time(() => rawRg(rawArgs, dir));
  const runsOf = async (json: string, which = 'grep') => {
    const rs: ChildResult[] = [];
    for (let i = 0; i < 3; i++) rs.push(await runChild(file, dir, json, which));
    return { ms: median(rs.map((r) => r.ms)), rss: median(rs.map((r) => r.rssMiB)), last: rs.at(-1)! };
  };
  const base = await runsOf('none');
  console.log(
    `\nA search with ${stats.commonLines.toLocaleString('en-US')} matching lines (${stats.bytes.toLocaleString('en-US')} bytes of tree), default limits, bundled tool in a fresh process (median of 3):`,
  );
  console.log(`- baseline process (module loaded, no search): ${base.rss.toFixed(1)} MiB peak RSS`);
  const searches: Array<[string, object, string]> = [
    ['Grep content', input, 'grep'],
    ['Grep files_with_matches', { pattern: COMMON_TOKEN }, 'grep'],
    ['Grep count', { pattern: COMMON_TOKEN, output_mode: 'count' }, 'grep'],
    ['Grep content, head_limit 0', { ...input, head_limit: 0 }, 'grep'],
    ['Glob **/*', { pattern: '**/*' }, 'glob'],
  ];
  for (const [label, json, which] of searches) {
    const r = await runsOf(JSON.stringify(json), which);
    const verdict = r.ms < 1000 && r.rss < 150 ? 'within target' : 'OVER target';
    const strategy = r.last.strategy ? `, ${r.last.strategy}` : '';
    console.log(
      `- ${label}: ${r.ms.toFixed(0)} ms, ${r.rss.toFixed(1)} MiB peak RSS, ${r.last.chars.toLocaleString('en-US')} chars to the model${strategy} (${verdict})`,
    );
  }
  console.log(`- for reference, the same rg command run directly, all of its output read: ${rawMs.toFixed(0)} ms`);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { dir, stats, generatedMs } = prepareTree();
  const made = generatedMs !== undefined ? `generated in ${(generatedMs / 1000).toFixed(1)} s` : 'reused';
  console.log(
    `Tree ${dir}: ${stats.files.toLocaleString('en-US')} files (${stats.ignoredFiles.toLocaleString('en-US')} ignored), ` +
      `${(stats.bytes / 1e6).toFixed(0)} MB, ${stats.dirs} leaf folders; ${made}. rg ${rgPath}`,
  );
  await rawRg(['--no-config', '--files', '.'], dir);
  await rawRg(['--no-config', '-c', COMMON_TOKEN, '.'], dir);
  const rows: Row[] = [];
  for (const c of cases(dir)) rows.push(await measureCase(c, dir));
  printRows(rows);
  await millionMatches(dir, stats);
}

await main();
