/**
 * Generates a large, deterministic source-like tree for the search benchmarks.
 *
 * Layout: `pkgNN/src/modNN/fileNNNN.ts` plus ignored `pkgNN/dist/` copies (listed in .gitignore, so a
 * search that respects ignore files skips them) and a hidden `.cache/` folder. Every line comes from a
 * small pool, so generation is fast and the content is reproducible for a given seed.
 *
 * Markers, for benchmarks that need a known number of hits:
 * - `COMMON_TOKEN` appears in about one line in five (a "million matches" search on a 300 MB tree);
 * - `RARE_TOKEN` appears in one file in a thousand (a typical "find this identifier" search).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const COMMON_TOKEN = 'commonTokenX';
export const RARE_TOKEN = 'rareNeedle_7f3a';

export interface TreeOptions {
  files: number;
  /** Average file size in bytes. */
  avgBytes: number;
  /** Files per leaf directory. */
  filesPerDir?: number;
  /** One file in `ignoredEvery` goes to an ignored dist/ folder. */
  ignoredEvery?: number;
  seed?: number;
}

export interface TreeStats {
  files: number;
  bytes: number;
  dirs: number;
  ignoredFiles: number;
  /** Lines holding COMMON_TOKEN in files a search sees (ignored files left out). */
  commonLines: number;
  /** Files holding RARE_TOKEN that a search sees. */
  rareFiles: number;
}

/** Mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'render',
  'parse',
  'value',
  'index',
  'buffer',
  'config',
  'result',
  'handler',
  'stream',
  'token',
  'widget',
  'layout',
  'cache',
  'queue',
  'state',
  'event',
];

function linePool(rand: () => number, size: number): string[] {
  const pool: string[] = [];
  for (let i = 0; i < size; i++) {
    const w = () => WORDS[Math.floor(rand() * WORDS.length)]!;
    const n = Math.floor(rand() * 1000);
    const kind = i % 4;
    if (kind === 0) pool.push(`export function ${w()}${n}(${w()}: number, ${w()}: string): ${w()} {`);
    else if (kind === 1) pool.push(`  const ${w()}_${n} = ${w()}.${w()}(${w()}, ${n}); // ${w()} ${w()}`);
    else if (kind === 2) pool.push(`  if (${w()} > ${n}) return ${w()}(${w()}, '${w()} ${w()}');`);
    else pool.push('}');
  }
  return pool;
}

function fileContent(rand: () => number, pool: string[], bytes: number, stats: TreeStats | undefined, rare: boolean): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    let line = pool[Math.floor(rand() * pool.length)]!;
    if (rand() < 0.2) {
      line = `  ${COMMON_TOKEN}(${size});`;
      if (stats) stats.commonLines++;
    }
    lines.push(line);
    size += line.length + 1;
  }
  if (rare) {
    lines.splice(lines.length >> 1, 0, `  const ${RARE_TOKEN} = 1;`);
    if (stats) stats.rareFiles++;
  }
  return lines.join('\n') + '\n';
}

/** Writes the tree under `root` (created if missing) and returns what was written. */
export function makeTree(root: string, opts: TreeOptions): TreeStats {
  const rand = prng(opts.seed ?? 42);
  const pool = linePool(rand, 2000);
  const perDir = opts.filesPerDir ?? 50;
  const ignoredEvery = opts.ignoredEvery ?? 20;
  const stats: TreeStats = { files: 0, bytes: 0, dirs: 0, ignoredFiles: 0, commonLines: 0, rareFiles: 0 };
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, '.gitignore'), 'dist/\n*.log\n');
  const madeDirs = new Set<string>();
  for (let i = 0; i < opts.files; i++) {
    const dirIndex = Math.floor(i / perDir);
    const pkg = `pkg${String(dirIndex % 40).padStart(2, '0')}`;
    const ignored = i % ignoredEvery === ignoredEvery - 1;
    const hidden = !ignored && i % 97 === 0;
    const sub = hidden ? '.cache' : ignored ? 'dist' : 'src';
    const dir = path.join(root, pkg, sub, `mod${String(dirIndex).padStart(4, '0')}`);
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    const bytes = Math.max(64, Math.floor(opts.avgBytes * (0.5 + rand())));
    const content = fileContent(rand, pool, bytes, ignored ? undefined : stats, i % 1000 === 500);
    writeFileSync(path.join(dir, `file${String(i).padStart(5, '0')}.ts`), content);
    stats.files++;
    stats.bytes += Buffer.byteLength(content);
    if (ignored) stats.ignoredFiles++;
  }
  stats.dirs = madeDirs.size;
  return stats;
}

// Standalone use: `npx tsx bench/make-tree.ts <dir> [files] [avgBytes]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, files = '50000', avgBytes = '6000'] = process.argv.slice(2);
  if (!dir) throw new Error('usage: make-tree.ts <dir> [files] [avgBytes]');
  const t0 = performance.now();
  const stats = makeTree(path.resolve(dir), { files: Number(files), avgBytes: Number(avgBytes) });
  console.log(JSON.stringify({ ...stats, ms: Math.round(performance.now() - t0) }));
}
