/** Whole-process measurements: wall time and peak RSS of a command, median of several runs. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'rss-hook.cjs');

export interface Sample {
  ms: number;
  rssMiB: number;
}

export async function measureOnce(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<Sample> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-bench-'));
  const rssFile = path.join(dir, 'rss');
  const env = { ...process.env, ...opts.env, WICKET_BENCH_RSS_FILE: rssFile, NODE_OPTIONS: `--require=${HOOK}` };
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdin.end(opts.stdin ?? '');
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))));
  });
  const ms = performance.now() - t0;
  let rssKiB = 0;
  try {
    rssKiB = Math.max(...readFileSync(rssFile, 'utf8').trim().split('\n').map(Number));
  } catch {
    rssKiB = 0;
  }
  rmSync(dir, { recursive: true, force: true });
  return { ms, rssMiB: rssKiB / 1024 };
}

export async function measure(cmd: string, args: string[], runs: number, opts: Parameters<typeof measureOnce>[2] = {}): Promise<Sample> {
  await measureOnce(cmd, args, opts); // warm-up
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await measureOnce(cmd, args, opts));
  return { ms: median(samples.map((s) => s.ms)), rssMiB: median(samples.map((s) => s.rssMiB)) };
}

/**
 * Runs `cmd` and a baseline command alternately, so both see the same moments of a noisy machine,
 * and reports both medians. `over` is the median of the per-pair differences.
 */
export async function measureAgainst(
  base: { cmd: string; args: string[]; env?: NodeJS.ProcessEnv },
  cmd: string,
  args: string[],
  runs: number,
  opts: Parameters<typeof measureOnce>[2] = {},
): Promise<{ base: Sample; run: Sample; overMs: number }> {
  await measureOnce(base.cmd, base.args, { env: base.env });
  await measureOnce(cmd, args, opts); // warm-up
  const b: Sample[] = [];
  const r: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    b.push(await measureOnce(base.cmd, base.args, { env: base.env }));
    r.push(await measureOnce(cmd, args, opts));
  }
  const pick = (xs: Sample[]) => ({ ms: median(xs.map((s) => s.ms)), rssMiB: median(xs.map((s) => s.rssMiB)) });
  return { base: pick(b), run: pick(r), overMs: median(r.map((s, i) => s.ms - b[i]!.ms)) };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function fmt(s: Sample): string {
  return `${s.ms.toFixed(1)} ms, ${s.rssMiB.toFixed(1)} MiB peak RSS`;
}
