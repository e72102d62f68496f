/**
 * Bash benchmarks (`npx tsx bench/bash.ts`):
 * - time a Bash call adds over `bash -c true` (median), plain and in the bubblewrap sandbox;
 * - parse + permission decision for a 1,000-word pipeline;
 * - peak RSS while a command prints 1 GB.
 */
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { decidePermission } from '../src/permissions/decide.js';
import { parseRule } from '../src/base/rule-parse.js';
import { bwrapAvailability, stopSandboxProxy } from '../src/sandbox/index.js';
import { bashTool, initBashParser } from '../src/tools/bash/index.js';
import type { ToolContext } from '../src/base/tool.js';
import { createToolEnv, runTool } from '../test/support/tool-context.js';
import { measureOnce, median } from './measure.js';

const RUNS = 25;

async function time(fn: () => Promise<unknown>, runs: number): Promise<number> {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

/** Every gate Bash owns: validate, permission, call, map. */
async function bashCall(command: string, ctx: () => ToolContext): Promise<void> {
  const c = ctx();
  const input = bashTool.inputSchema.parse({ command });
  await bashTool.validateInput!(input, c);
  await bashTool.checkPermissions(input, c);
  const r = await runTool(bashTool, input, c);
  bashTool.toModelResult(r.output, input);
}

/**
 * Median time of `fn` and of `bash -c true`, measured alternately so that load from other processes
 * on the machine affects both alike; the added time is the median of the paired differences.
 */
async function overhead(fn: () => Promise<unknown>): Promise<{ base: number; tool: number; added: number }> {
  const base: number[] = [];
  const tool: number[] = [];
  await fn();
  for (let i = 0; i < RUNS; i++) {
    let t0 = performance.now();
    await execa('bash', ['-c', 'true']);
    base.push(performance.now() - t0);
    t0 = performance.now();
    await fn();
    tool.push(performance.now() - t0);
  }
  return { base: median(base), tool: median(tool), added: median(tool.map((t, i) => t - base[i]!)) };
}

function report(label: string, r: { base: number; tool: number; added: number }, target: number): void {
  console.log(
    `${label.padEnd(34)} ${r.tool.toFixed(1)} ms median vs ${r.base.toFixed(1)} ms for bash -c true: ${r.added.toFixed(1)} ms added (target ≤ ${target})`,
  );
}

async function callOverhead(): Promise<void> {
  const env = createToolEnv({ env: { PATH: process.env.PATH } });
  report('Bash tool call:', await overhead(() => bashCall('true', () => env.nextCall())), 20);
  const available = await bwrapAvailability();
  if (!available.ok) {
    console.log(`sandboxed Bash tool call:          skipped (${available.reason})`);
  } else {
    const sbEnv = createToolEnv({ env: { PATH: process.env.PATH }, settings: { sandbox: { enabled: true } } });
    report('sandboxed Bash tool call:', await overhead(() => bashCall('true', () => sbEnv.nextCall())), 40);
    const bare = await overhead(() =>
      execa('bwrap', [
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--tmpfs',
        '/tmp',
        '--unshare-net',
        '--unshare-pid',
        '--unshare-ipc',
        '--die-with-parent',
        '--',
        'bash',
        '-c',
        'true',
      ]),
    );
    console.log(`  of which bubblewrap itself:       ${bare.added.toFixed(1)} ms (bwrap … bash -c true, no wicket)`);
    const netEnv = createToolEnv({ env: { PATH: process.env.PATH }, settings: { sandbox: { enabled: true, network: { allowedDomains: ['example.com'] } } } });
    report('  with the domain proxy bridge:', await overhead(() => bashCall('true', () => netEnv.nextCall())), 40);
    sbEnv.cleanup();
    netEnv.cleanup();
    await stopSandboxProxy();
  }
  env.cleanup();
}

async function decisionTime(): Promise<void> {
  const env = createToolEnv();
  const rules = {
    allow: ['Bash(npm test:*)', 'Bash(git status)', 'Bash(grep *)'].map((r) => parseRule(r, 'projectSettings')),
    ask: ['Bash(git push:*)'].map((r) => parseRule(r, 'projectSettings')),
    deny: ['Bash(rm:*)', 'Bash(curl:*)', 'Bash(git * --force)'].map((r) => parseRule(r, 'projectSettings')),
  };
  // 250 commands of 4 words: 1,000 words. A new string each run, so nothing comes from the cache.
  let n = 0;
  const pipeline = (): string => Array.from({ length: 250 }, (_, i) => `grep -n w${i}x${n} src/file${i}.ts`).join(' | ');
  const ms = await time(async () => {
    n++;
    const input = { command: pipeline() };
    await decidePermission({ tool: bashTool, input, ctx: env.ctx, rules, mode: 'default' });
  }, 15);
  const words = pipeline()
    .split(/\s+/)
    .filter((w) => w !== '|').length;
  console.log(`parse + permission, ${words}-word pipeline: ${ms.toFixed(1)} ms median (cold cache)`);
  env.cleanup();
}

async function peakRss(): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const idle = await measureOnce(process.execPath, ['--import', 'tsx', self, '--print', '0']);
  const big = await measureOnce(process.execPath, ['--import', 'tsx', self, '--print', '1G']);
  console.log(`peak RSS, command printing nothing: ${idle.rssMiB.toFixed(1)} MiB`);
  console.log(`peak RSS, command printing 1 GB:    ${big.rssMiB.toFixed(1)} MiB (${(big.ms / 1000).toFixed(1)} s)`);
}

/** Child mode: one Bash call printing `size` bytes of text in lines. */
async function printChild(size: string): Promise<void> {
  await initBashParser();
  const env = createToolEnv({ env: { PATH: process.env.PATH } });
  const command = size === '0' ? 'true' : `head -c ${size} /dev/zero | tr '\\0' 'x' | fold -w 100`;
  const r = await runTool(bashTool, { command, timeout: 600_000 }, env.ctx);
  if (size !== '0' && r.output.totalBytes < 1_000_000_000) throw new Error(`only ${r.output.totalBytes} bytes`);
  env.cleanup();
}

const printArg = process.argv.indexOf('--print');
if (printArg >= 0) {
  await printChild(process.argv[printArg + 1] ?? '0');
} else {
  await initBashParser();
  await callOverhead();
  await decisionTime();
  await peakRss();
}
