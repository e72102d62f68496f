/**
 * The terminal app's benchmark. Streams 2,000 text deltas into the real App after a transcript of
 * 2,000 finished messages and after an empty one, and reports, per delta, the bytes written to the
 * terminal and the CPU time; the long transcript should cost at most 1.2× the empty one, and peak RSS
 * stay under 150 MiB. Then the time from start to an interactive prompt of the built binary, in a
 * pseudo-terminal (util-linux `script`).
 * The scenario is bundled like the product (esbuild, React in production mode) so figures match it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { median } from './measure.js';

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
    banner: { js: "import{createRequire as __wcr}from'node:module';const require=__wcr(import.meta.url);" },
    plugins: [
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

/** Start → the prompt on screen, in a pseudo-terminal; then Ctrl-D. */
function timeToPrompt(): Promise<number> {
  const home = mkdtempSync(path.join(work, 'home-'));
  // A project the person has trusted, as most starts are: the trust dialog is not what is measured.
  const project = mkdtempSync(path.join(work, 'project-'));
  writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }));
  const env = cleanEnv({
    HOME: home,
    WICKET_HOME: path.join(home, '.wicket'),
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    TERM: 'xterm-256color',
    COLUMNS: '100',
    LINES: '40',
  });
  const bin = path.join(root, 'bin', 'wicket.js');
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('script', ['-qfec', `${process.execPath} ${bin}`, '/dev/null'], { cwd: project, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let ms = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (!ms && out.includes('shift+tab to cycle')) {
        ms = performance.now() - t0;
        setTimeout(() => child.stdin.write('\x04'), 200);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (ms) resolve(ms);
      else reject(new Error(`no prompt appeared:\n${out.slice(-500)}`));
    });
  });
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
  else if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) console.log('time to prompt: skipped (util-linux `script` is missing)');
  else {
    await timeToPrompt(); // warm the file cache
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) samples.push(await timeToPrompt());
    console.log(
      `time to interactive prompt (built binary, pty): median ${median(samples).toFixed(0)} ms of ${samples.length} (min ${Math.min(...samples).toFixed(0)}, max ${Math.max(...samples).toFixed(0)})`,
    );
  }
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
