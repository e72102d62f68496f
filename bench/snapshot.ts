/**
 * What a snapshot of the project (core/snapshots/) adds to a turn, on a 50,000-file tree: the first
 * snapshot (the shadow index is built, every file hashed once), then a snapshot of the unchanged tree
 * (git's stat cache: no file is read), and one after a turn changed 20 files. Each figure is the
 * time the turn waits: the project's HEAD read, `git add -A`, the modes of the files and folders, the
 * tree and the commit named for the checkpoint. A large ignored node_modules/ sits beside the
 * sources and is left out. A session watches the project: an unchanged tree reuses the last
 * snapshot, and after changes only the changed paths are read again; without the watch, git scans
 * the whole tree each time.
 *
 * The tree is generated once in the system's temporary folder and reused by later runs.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Snapshots } from '../src/core/snapshots/snapshots.js';
import { ShadowRepo } from '../src/session/shadow-git.js';

const FILES = 50_000;
const PER_DIR = 100;
const IGNORED = 3000;
const RUNS = 7;

function makeTree(dir: string): void {
  const done = path.join(dir, '.complete');
  if (existsSync(done)) return;
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  for (let d = 0; d < FILES / PER_DIR; d++) {
    const sub = path.join(dir, 'src', `mod${d}`);
    mkdirSync(sub, { recursive: true });
    for (let f = 0; f < PER_DIR; f++) writeFileSync(path.join(sub, `file${f}.ts`), `export const v${f} = ${d * PER_DIR + f};\n// module ${d}\n`);
  }
  mkdirSync(path.join(dir, 'node_modules', 'dep'), { recursive: true });
  for (let i = 0; i < IGNORED; i++) writeFileSync(path.join(dir, 'node_modules', 'dep', `m${i}.js`), `module.exports = ${i};\n`);
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  writeFileSync(done, '');
  console.log(`generated ${FILES} files (+${IGNORED} ignored) in ${Math.round(performance.now() - started)} ms`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

function changeFiles(tree: string, round: number): void {
  for (let i = 0; i < 10; i++) writeFileSync(path.join(tree, 'src', `mod${i}`, 'file0.ts'), `export const changed = ${round};\n`);
  for (let i = 0; i < 5; i++) writeFileSync(path.join(tree, 'src', `mod${i}`, `made${round}.ts`), `// new ${round}\n`);
  for (let i = 0; i < 5; i++) {
    const p = path.join(tree, 'src', `mod${10 + i}`, round % 2 ? 'file1.ts' : 'file2.ts');
    if (existsSync(p)) unlinkSync(p);
    else writeFileSync(p, '// back\n');
  }
}

const tree = path.join(tmpdir(), `wicket-bench-snapshot-${FILES}`);
makeTree(tree);
await new Promise((r) => setTimeout(r, 1100)); // past git's racy-timestamp window
async function measure(watch: boolean): Promise<void> {
  const home = mkdtempSync(path.join(tmpdir(), 'wicket-bench-shadow-'));
  const snaps = new Snapshots(ShadowRepo.forProject(home, tree, { watch }), 'bench', home);
  try {
    let id = 1;
    const first = await timed(() => snaps.take(id++));
    // a session's second snapshot arms the watch (one more full scan): not counted below
    const second = await timed(() => snaps.take(id++));
    const unchanged: number[] = [];
    for (let i = 0; i < RUNS; i++) unchanged.push(await timed(() => snaps.take(id++)));
    const changed: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      changeFiles(tree, i);
      changed.push(await timed(() => snaps.take(id++)));
    }
    const files = (await snaps.repo.git(['ls-tree', '-r', '--name-only', (await snaps.at(1))!.tree])).stdout.toString('utf8').split('\n').length - 1;
    console.log(watch ? '-- a session (the project watched):' : '-- not watched (git scans the tree each time):');
    console.log(`files in a snapshot:               ${files} (node_modules/ left out)`);
    console.log(`first snapshot (index built):      ${Math.round(first)} ms`);
    console.log(`second snapshot:                   ${Math.round(second)} ms`);
    console.log(`snapshot, unchanged tree (median): ${Math.round(median(unchanged))} ms  [${unchanged.map(Math.round).join(', ')}]`);
    console.log(`snapshot, 20 files changed:        ${Math.round(median(changed))} ms  [${changed.map(Math.round).join(', ')}]`);
  } finally {
    snaps.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const STREAM_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What a snapshot adds to the call that waits for it, in a new process each time (a new shadow
 * object over the same shadow repository, as a new `wicket` run finds it):
 * - the app: the project scanned ahead while the person types (warm), then the first prompt's Bash;
 * - print mode: the snapshot starts when the stream names Bash, and the model streams its input for
 *   STREAM_MS; the call then waits what is left of the snapshot (and, before, it waited all of it).
 */
async function added(): Promise<void> {
  const home = mkdtempSync(path.join(tmpdir(), 'wicket-bench-shadow-'));
  const open = (watch: boolean) => new Snapshots(ShadowRepo.forProject(home, tree, { watch }), 'bench', home);
  const rows: Record<string, { unchanged: number[]; changed: number[] }> = {};
  const note = (row: string, changed: boolean, ms: number) => {
    rows[row] ??= { unchanged: [], changed: [] };
    rows[row][changed ? 'changed' : 'unchanged'].push(ms);
  };
  try {
    const built = open(false);
    await built.take(1); // the shadow index built once (every file hashed)
    let round = 100;
    for (let i = 0; i < RUNS; i++) {
      for (const changed of [false, true]) {
        const app = open(true);
        await app.warm();
        if (changed) changeFiles(tree, round++);
        app.begin(1);
        note('app, first prompt after the warm-up', changed, await timed(() => app.beforeChange('Bash', {}, tree)));
        app.close();
        const early = open(false);
        if (changed) changeFiles(tree, round++);
        early.begin(1);
        early.start(); // the stream names Bash
        await sleep(STREAM_MS); // the model streams the command
        note(`print mode, input streamed ${STREAM_MS} ms`, changed, await timed(() => early.beforeChange('Bash', {}, tree)));
        const late = open(false);
        if (changed) changeFiles(tree, round++);
        late.begin(1);
        note('print mode, no early start (before)', changed, await timed(() => late.beforeChange('Bash', {}, tree)));
      }
    }
    console.log(`-- what a snapshot adds to the call, each in a new process (median of ${RUNS}):`);
    console.log('                                          unchanged   20 files changed');
    for (const [row, v] of Object.entries(rows))
      console.log(
        `${row.padEnd(42)}${`${Math.round(median(v.unchanged))} ms`.padEnd(12)}${Math.round(median(v.changed))} ms  [${v.unchanged.map(Math.round).join(', ')} | ${v.changed.map(Math.round).join(', ')}]`,
      );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.env.WICKET_BENCH_SNAPSHOT !== 'added') {
  await measure(true);
  await measure(false);
}
await added();
