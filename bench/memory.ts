/**
 * Start-up with instruction files: one print-mode text turn in a project of 50 of them (a CLAUDE.md
 * in each of 8 folders down to the working directory, 14 @ imports — some behind HTML comments and
 * code blocks, so the Markdown lexer loads — 20 rules of which half wait for paths:, CLAUDE.local.md,
 * the user's CLAUDE.md and 5 user rules, and an auto memory index; a git repository, so the system
 * prompt's git status runs), beside the same turn in an empty project. Target: under 200 ms.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SessionInstructions } from '../src/session/memory/session-instructions.js';
import { reply, startFakeAnthropic } from '../test/support/fake-anthropic-server.js';
import { fmt, measureAgainst } from './measure.js';

const BIN = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), 'bin', 'wicket.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const NODE = { cmd: process.execPath, args: ['-e', '0'] };
const PARA = 'Keep functions small and named for what they do; prefer the existing helpers; test the behaviour, not the wiring.\n';

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The project (the working directory is 7 folders below its root) and HOME; returns the count of files. */
function makeProject(root: string, home: string): { cwd: string; count: number } {
  let count = 0;
  const put = (file: string, text: string) => {
    write(file, text);
    count++;
  };
  const dirs = [root];
  for (const d of 'abcdefg') dirs.push(path.join(dirs.at(-1)!, d));
  const imports = Array.from({ length: 14 }, (_, i) => `docs/topic-${i}.md`);
  const claude = [
    '# Project',
    PARA.repeat(5),
    '<!-- A comment block the model never sees. -->',
    ...imports.map((p) => `- See @${p}`),
    '```sh\n@not-an-import.md\n```',
    '',
  ].join('\n');
  for (const [i, d] of dirs.entries()) put(path.join(d, 'CLAUDE.md'), i === 0 ? claude : `# Folder ${i}\n${PARA.repeat(3)}`);
  for (const p of imports) put(path.join(root, p), `# ${p}\n${PARA.repeat(4)}`);
  for (let i = 0; i < 20; i++)
    put(path.join(root, '.claude', 'rules', `rule-${i}.md`), `${i % 2 ? `---\npaths: ["src/${i}/**/*.ts"]\n---\n` : ''}# Rule ${i}\n${PARA.repeat(2)}`);
  put(path.join(root, 'CLAUDE.local.md'), `# Mine\n${PARA}`);
  put(path.join(home, '.claude', 'CLAUDE.md'), `# User\n${PARA.repeat(3)}`);
  for (let i = 0; i < 5; i++) put(path.join(home, '.claude', 'rules', `user-${i}.md`), `# User rule ${i}\n${PARA}`);
  const cwd = dirs.at(-1)!;
  const slug = realpathSync(root).replace(/[^a-zA-Z0-9]/g, '-');
  put(
    path.join(home, '.claude', 'projects', slug, 'memory', 'MEMORY.md'),
    Array.from({ length: 40 }, (_, i) => `- [Note ${i}](note-${i}.md) — a hook`).join('\n'),
  );
  // A real repository, as projects are: the system prompt's git status runs in it.
  execFileSync('git', ['init', '-q'], { cwd: root });
  return { cwd: realpathSync(cwd), count };
}

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-mem-')));
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-memhome-')));
  const empty = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-empty-')));
  const emptyHome = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-emptyhome-')));
  const { cwd, count } = makeProject(root, home);
  const own = inProcess(cwd, home);
  console.log(
    `finding and rendering the ${count} files, in process (the source, not the bundle): ${own.first.toFixed(1)} ms the first time (the lexer's first file included), ${own.median.toFixed(1)} ms median after`,
  );
  const server = await startFakeAnthropic({ whenExhausted: reply().text('Hello from the bench.') });
  const envOf = (h: string) => ({ HOME: h, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, WICKET_HOME: path.join(h, '.wicket') });
  try {
    const bare = await measureAgainst(NODE, BIN, ['-p', 'hi'], RUNS, { cwd: empty, env: envOf(emptyHome) });
    console.log(`one text turn, no instruction files: ${fmt(bare.run)}  (${bare.overMs.toFixed(1)} ms over node -e 0)`);
    const full = await measureAgainst(NODE, BIN, ['-p', 'hi'], RUNS, { cwd, env: envOf(home) });
    const sent = JSON.stringify(server.lastRequest()?.body.messages?.[0]).length;
    if (existsSync(TIME)) {
      const [cpuBare, cpuFull] = [await cpuOf(empty, envOf(emptyHome)), await cpuOf(cwd, envOf(home))];
      console.log(
        `CPU time (user+sys, median; a busy machine moves it less than wall time): ${cpuBare.toFixed(0)} ms without files, ${cpuFull.toFixed(0)} ms with ${count}`,
      );
    }
    console.log(
      `one text turn, ${count} instruction files: ${fmt(full.run)}  (${full.overMs.toFixed(1)} ms over node -e 0; ${(full.run.ms - bare.run.ms).toFixed(1)} ms for the files; first message ${(sent / 1024).toFixed(0)} KiB; target < 200 ms)`,
    );
  } finally {
    await server.close();
    for (const d of [root, home, empty, emptyHome]) rmSync(d, { recursive: true, force: true });
  }
}

const TIME = '/usr/bin/time';

/** Median user+sys CPU milliseconds of one text turn, from GNU time. */
async function cpuOf(cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(TIME, ['-f', 'CPU %U %S', process.execPath, BIN, '-p', 'hi'], {
        cwd,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('error', reject);
      child.on('exit', () => {
        const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(err);
        resolve(m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN);
      });
    });
  await one();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await one());
  return runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
}

/** The instruction files' own cost: found, read, lexed where needed and rendered; the first time, and the median of RUNS after. */
function inProcess(cwd: string, home: string): { first: number; median: number } {
  const configDir = path.join(home, '.claude');
  const memory = path.join(configDir, 'projects', realpathSync(path.join(cwd, ...Array(7).fill('..'))).replace(/[^a-zA-Z0-9]/g, '-'), 'memory');
  const once = () => {
    const t0 = performance.now();
    new SessionInstructions({ cwd, home, configDir, managedDir: path.join(home, 'managed'), deniedBy: () => undefined, autoMemoryDir: memory })
      .conversation()
      .startBlocks();
    return performance.now() - t0;
  };
  const first = once();
  const times = Array.from({ length: RUNS }, once).sort((a, b) => a - b);
  return { first, median: times[Math.floor(times.length / 2)]! };
}

await main();
