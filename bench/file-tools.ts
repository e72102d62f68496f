/**
 * File tools: Read with an offset in a 100 MB file (peak RSS of a process doing only that, beside
 * one that only loads the tools), Edit in a 5 MB file (time), and the memory the read state holds
 * after reading 1,000 and 2,000 files. Prints figures; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { editTool } from '../src/tools/edit/index.js';
import { readTool } from '../src/tools/read/index.js';
import { ReadState } from '../src/base/read-state.js';
import type { SessionState, Tool, ToolContext } from '../src/base/tool.js';
import { median } from './measure.js';

const SELF = fileURLToPath(import.meta.url);

function context(dir: string, state: SessionState): ToolContext {
  return {
    cwd: dir,
    projectRoot: dir,
    additionalDirs: [],
    homeDir: dir,
    wicketHome: path.join(dir, '.wicket'),
    sessionId: 'bench',
    toolUseId: 'bench',
    signal: new AbortController().signal,
    permissionMode: 'default',
    readState: state.readState,
    env: {},
    settings: {},
  };
}

/** validate → call → context change, as the runner does; throws on a refusal. */
async function run<I, O>(tool: Tool<I, O>, raw: unknown, state: SessionState, dir: string): Promise<O> {
  const ctx = context(dir, state);
  const input = tool.inputSchema.parse(raw);
  const valid = await tool.validateInput?.(input, ctx);
  if (valid && !valid.ok) throw new Error(valid.message);
  const gen = tool.call(input, ctx);
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  tool.contextChange?.(step.value, input)?.(state);
  tool.toModelResult(step.value, input);
  return step.value;
}

function newState(dir: string): SessionState {
  return { cwd: dir, readState: new ReadState() };
}

// ---- child processes: one measurement each, reported as JSON on stdout ----

async function child(mode: string, file: string): Promise<void> {
  const dir = path.dirname(file);
  const t0 = performance.now();
  if (mode === 'read-offset') await run(readTool, { file_path: file, offset: 900_000, limit: 100 }, newState(dir), dir);
  if (mode === 'read-state') {
    // Warm up first, so code compiled on the first calls is not counted as read state.
    const warm = newState(dir);
    for (let i = 0; i < 20; i++) await run(readTool, { file_path: path.join(dir, `f${i}.ts`) }, warm, dir);
    // The heap also grows once by the code V8 optimises during the first thousand; the second
    // thousand shows what each entry costs.
    const heap = () => (globalThis.gc?.(), process.memoryUsage().heapUsed);
    const before = heap();
    const state = newState(dir);
    for (let i = 0; i < 1000; i++) await run(readTool, { file_path: path.join(dir, `f${i}.ts`) }, state, dir);
    const mid = heap();
    for (let i = 1000; i < 2000; i++) await run(readTool, { file_path: path.join(dir, `f${i}.ts`) }, state, dir);
    const after = heap();
    process.stdout.write(JSON.stringify({ entries: state.readState.size, heapDelta: mid - before, perEntry: (after - mid) / 1000 }));
    return;
  }
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, maxRssKiB: peakRssKiB() }));
}

/**
 * Peak RSS of this process. On Linux, VmHWM: `getrusage`'s maxRSS survives exec and so starts at
 * the parent's size when the parent forked, which would measure the bench, not the tool.
 */
function peakRssKiB(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

/**
 * The children run from a plain-JS bundle of this file, so the figures are the tools' own and not
 * the TypeScript loader's (tsx alone costs more memory than the target).
 */
async function bundleSelf(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(dir, 'file-tools-bench.mjs');
  await build({
    entryPoints: [SELF],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['pdf-parse', 'esbuild'],
    banner: { js: "import{createRequire as __wcr}from'node:module';const require=__wcr(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}

let childScript = SELF;

function spawnChild(mode: string, file: string): Record<string, number> {
  const loader = childScript === SELF ? ['--import', 'tsx'] : [];
  const r = spawnSync(process.execPath, ['--expose-gc', ...loader, childScript, '--child', mode, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, number>;
}

// ---- the benchmarks ----

function readOffsetIn100MB(dir: string): void {
  const file = path.join(dir, 'big.log');
  const line = 'a line of a large log file, about one hundred bytes long, padded out with some more words here\n';
  const block = Buffer.alloc(1024 * 1024, line);
  const fd = openSync(file, 'w');
  for (let i = 0; i < 100; i++) writeSync(fd, block);
  closeSync(fd);
  const base = spawnChild('noop', file);
  const samples = [0, 1, 2, 3, 4].map(() => spawnChild('read-offset', file));
  const rss = median(samples.map((s) => s.maxRssKiB!)) / 1024;
  const ms = median(samples.map((s) => s.ms!));
  console.log(
    `Read offset=900000 limit=100 in a 100 MB file: ${ms.toFixed(0)} ms, peak RSS ${rss.toFixed(1)} MiB ` +
      `(process that only loads the tools: ${(base.maxRssKiB! / 1024).toFixed(1)} MiB; target < 100 MiB)`,
  );
}

async function editIn5MB(dir: string): Promise<void> {
  const file = path.join(dir, 'five.ts');
  const lines = Array.from({ length: 100_000 }, (_, i) => `export const value${i} = ${i}; // some trailing comment text`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const state = newState(dir);
  await run(readTool, { file_path: file, limit: 10 }, state, dir);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await run(editTool, { file_path: file, old_string: `value${50_000 + i} = `, new_string: `renamed${50_000 + i} = ` }, state, dir);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    wall.push(performance.now() - t0);
  }
  console.log(
    `Edit one line in a 5 MB file (validate + call + atomic write with fsync): median ${median(wall).toFixed(1)} ms wall, ` +
      `${median(cpu).toFixed(1)} ms CPU`,
  );
}

function readStateMemory(dir: string): void {
  for (let i = 0; i < 2000; i++) writeFileSync(path.join(dir, `f${i}.ts`), `export const x${i} = ${i};\n`.repeat(50));
  const r = spawnChild('read-state', path.join(dir, 'f0.ts'));
  console.log(
    `Read state: heap +${(r.heapDelta! / 1024).toFixed(0)} KiB over the first 1,000 files read (optimised code included), ` +
      `${r.perEntry!.toFixed(0)} bytes per file over the next 1,000 (${r.entries} entries)`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1]!, args[2]!);
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-files-')));
  try {
    childScript = await bundleSelf(dir);
    readOffsetIn100MB(dir);
    await editIn5MB(dir);
    readStateMemory(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
