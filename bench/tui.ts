/**
 * The terminal app's benchmark. Streams 2,000 text deltas into the real App after a transcript of
 * 2,000 finished messages and after an empty one, and reports, per delta, the bytes written to the
 * terminal and the CPU time; the long transcript should cost at most 1.2× the empty one, and peak RSS
 * stay under 150 MiB. Then the time from launch to the prompt box of the built binary in tmux at
 * 120×40, beside Claude Code's when it is installed.
 * The scenario is bundled like the product (esbuild, React in production mode) so figures match it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
// @ts-expect-error the build's plugins are plain JavaScript, without types
import * as buildApp from '../build-app.mjs';
import { claudeCode, hasTmux, type Launch, timeToPrompt } from './startup-helper.js';

const { fastSegmenter, fastStringWidth, wrapWithoutStraySpace } = buildApp as Record<'fastSegmenter' | 'fastStringWidth' | 'wrapWithoutStraySpace', Plugin>;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const work = mkdtempSync(path.join(tmpdir(), 'wicket-bench-tui-'));
const HOOK = path.join(here, 'rss-hook.cjs');

async function bundleScenario(): Promise<string> {
  // Inside the project, so the bundle's externals resolve from node_modules.
  const outfile = path.join(root, 'node_modules', '.cache', 'wicket-bench', 'tui-scenario.mjs');
  await build({
    entryPoints: [path.join(here, 'tui-scenario.tsx')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@vscode/ripgrep', 'pdf-parse', 'web-tree-sitter', 'tree-sitter-bash', '@napi-rs/canvas', 'pdfjs-dist', 'write-file-atomic'],
    define: { 'process.env.NODE_ENV': '"production"' },
    // As build.mjs: jsonc-parser's "main" is a UMD build esbuild cannot follow.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    banner: { js: "import{createRequire as __wcr}from'node:module';const require=__wcr(import.meta.url);" },
    // The product's text measuring (build-app.mjs): the same string-width and segmenter as the app.
    plugins: [
      fastStringWidth,
      fastSegmenter,
      wrapWithoutStraySpace,
      {
        name: 'stub-react-devtools',
        setup(b) {
          b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'stub', namespace: 'stub' }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default {connectToDevTools(){}};', loader: 'js' }));
        },
      },
    ],
    logLevel: 'error',
    nodePaths: [path.join(root, 'node_modules')],
  });
  return outfile;
}

interface StreamResult {
  items: number;
  deltas: number;
  bytes: number;
  cpuMs: number;
  renders: number;
  wallMs: number;
  rssMiB: number;
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  delete env.NODE_OPTIONS;
  return env;
}

function runScenario(file: string, items: number): StreamResult {
  const rssFile = path.join(work, `rss-${items}`);
  const r = spawnSync(process.execPath, ['--max-semi-space-size=4', '--optimize-for-size', '--require', HOOK, file, String(items)], {
    env: cleanEnv({ WICKET_BENCH_RSS_FILE: rssFile, FORCE_COLOR: '1' }),
    encoding: 'utf8',
    cwd: root,
  });
  if (r.status !== 0) throw new Error(`scenario ${items} failed: ${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1)!;
  const rssKiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
  return { ...(JSON.parse(line) as Omit<StreamResult, 'rssMiB'>), rssMiB: rssKiB / 1024 };
}

/** Launch → the prompt box, in tmux at 120×40: wicket, and Claude Code beside it when installed (startup-helper.ts). */
function reportTimeToPrompt(): void {
  const bin = path.join(root, 'bin', 'wicket.js');
  const launches: Launch[] = [{ name: 'wicket', command: `'${process.execPath}' '${bin}'`, ready: ['shift+tab to cycle'] }];
  const claude = claudeCode();
  if (claude) launches.push({ name: 'Claude Code', command: `'${claude}'`, ready: ['for shortcuts', 'mode on'] });
  const figures = timeToPrompt(launches, mkdtempSync(path.join(work, 'start-')), 7);
  console.log('time from launch to the prompt box (tmux 120×40, median of 7, interleaved; CPU: all threads)');
  for (const f of figures)
    console.log(
      `${f.name.padEnd(22)}${f.medianMs.toFixed(0).padStart(7)} ms${f.medianCpuMs.toFixed(0).padStart(7)} ms CPU   ${JSON.stringify(f.samples)}${f.failed ? `  (${f.failed} runs failed)` : ''}`,
    );
  const [ours, theirs] = figures;
  if (ours && theirs) console.log(`wicket / Claude Code: ${(ours.medianMs / theirs.medianMs).toFixed(2)}× (target ≤ 0.5×)`);
  else
    console.log('Claude Code: not measured (put `claude` on the PATH, set CLAUDE_CODE_BIN, or `cd /tmp/cc && npm install @anthropic-ai/claude-code@2.1.332`)');
}

function perDelta(r: StreamResult): { bytes: number; cpuUs: number } {
  return { bytes: r.bytes / r.deltas, cpuUs: (r.cpuMs * 1000) / r.deltas };
}

async function main(): Promise<void> {
  const file = await bundleScenario();
  const empty = runScenario(file, 0);
  const long = runScenario(file, 2000);
  const e = perDelta(empty);
  const l = perDelta(long);
  const row = (name: string, r: StreamResult, p: { bytes: number; cpuUs: number }) =>
    `${name.padEnd(22)}${p.bytes.toFixed(1).padStart(10)} B/delta${p.cpuUs.toFixed(1).padStart(10)} µs CPU/delta${String(r.renders).padStart(8)} renders${r.rssMiB.toFixed(1).padStart(9)} MiB peak RSS`;
  console.log('stream 2,000 text deltas (App on a 100×40 fake terminal, ~30 fps)');
  console.log(row('after 0 messages', empty, e));
  console.log(row('after 2,000 messages', long, l));
  const ratio = l.cpuUs / e.cpuUs;
  const bytesRatio = l.bytes / e.bytes;
  console.log(
    `long/empty per delta: CPU ${ratio.toFixed(2)}×, bytes ${bytesRatio.toFixed(2)}× (target ≤ 1.2×): ${ratio <= 1.2 && bytesRatio <= 1.2 ? 'ok' : 'OVER'}`,
  );
  console.log(
    `peak RSS ${Math.max(empty.rssMiB, long.rssMiB).toFixed(1)} MiB (target < 150 MiB): ${Math.max(empty.rssMiB, long.rssMiB) < 150 ? 'ok' : 'OVER'}`,
  );
  if (!existsSync(path.join(root, 'dist', 'cli', 'entry.cjs'))) console.log('time to prompt: skipped (run `node build.mjs` first)');
  else if (!hasTmux()) console.log('time to prompt: skipped (tmux is missing)');
  else reportTimeToPrompt();
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
